import { describe, expect, it } from "vitest";
import { type LinePage, pagedLines } from "./paged-lines.js";

/** A ledger of `total` numbered lines, recording each page asked for. */
function ledger(total: number) {
  const asked: { after: string; limit: number }[] = [];
  const read = async (after: string, limit: number): Promise<LinePage<number>> => {
    asked.push({ after, limit });
    const from = after === "" ? 0 : Number(after);
    const lines = Array.from({ length: Math.max(0, Math.min(limit, total - from)) }, (_, i) => from + i);
    return { lines, nextCursor: String(from + lines.length) };
  };
  return { asked, read };
}

async function take<T>(it: AsyncIterator<T>, n: number): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i++) {
    const next = await it.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

describe("pagedLines", () => {
  it("yields the counted lines in order, each page's limit no more than what is left", async () => {
    const { asked, read } = ledger(25);
    const lines = await take(pagedLines(read, 23, 10), 100);
    expect(lines).toEqual(Array.from({ length: 23 }, (_, i) => i));
    expect(asked).toEqual([
      { after: "", limit: 10 },
      { after: "10", limit: 10 },
      { after: "20", limit: 3 },
    ]);
  });

  it("asks for the next page while the current one is read, and never more than one page ahead", async () => {
    const { asked, read } = ledger(100);
    const it = pagedLines(read, 100, 10)[Symbol.asyncIterator]();
    expect(await take(it, 1)).toEqual([0]);
    expect(asked.length).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked.length).toBe(2);
    await take(it, 9);
    expect(asked.length).toBe(2);
    expect(await take(it, 1)).toEqual([10]);
    expect(asked.length).toBe(3);
  });

  it("ends on an empty page, and a stopped reader leaves no unhandled failure", async () => {
    const { read } = ledger(5);
    expect(await take(pagedLines(read, 8, 5), 100)).toEqual([0, 1, 2, 3, 4]);
    let calls = 0;
    const failing = async (): Promise<LinePage<number>> => {
      calls += 1;
      if (calls > 1) throw new Error("ledger down");
      return { lines: [1, 2], nextCursor: "2" };
    };
    const it = pagedLines(failing, 10, 2)[Symbol.asyncIterator]();
    expect(await take(it, 1)).toEqual([1]);
    await it.return?.(undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toBe(2);
  });

  it("passes a failing page on to the reader", async () => {
    const failing = async (after: string): Promise<LinePage<number>> => {
      if (after) throw new Error("ledger down");
      return { lines: [1], nextCursor: "1" };
    };
    await expect(take(pagedLines(failing, 3, 1)[Symbol.asyncIterator](), 3)).rejects.toThrow("ledger down");
  });
});
