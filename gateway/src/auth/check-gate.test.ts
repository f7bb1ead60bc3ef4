import { describe, expect, it } from "vitest";
import { createCheckGate } from "./check-gate.js";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe("check gate", () => {
  it("runs at most maxConcurrent checks, refuses past maxQueued, and starts priority waiters first", async () => {
    const gate = createCheckGate({ maxConcurrent: 2, maxQueued: 2 });
    const started: string[] = [];
    const held = new Map<string, ReturnType<typeof deferred>>();
    const check = (name: string) => async () => {
      started.push(name);
      const d = deferred();
      held.set(name, d);
      await d.promise;
      return name;
    };
    const a = gate.run(check("a"), false);
    const b = gate.run(check("b"), false);
    const c = gate.run(check("c"), false);
    const d = gate.run(check("d"), true);
    expect(await gate.run(check("e"), true)).toEqual({ busy: true });
    await Promise.resolve();
    expect(started).toEqual(["a", "b"]);
    held.get("a")!.resolve();
    expect(await a).toEqual({ busy: false, value: "a" });
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(["a", "b", "d"]);
    held.get("b")!.resolve();
    held.get("d")!.resolve();
    await Promise.all([b, d]);
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(["a", "b", "d", "c"]);
    held.get("c")!.resolve();
    expect(await c).toEqual({ busy: false, value: "c" });
    // All slots are free again.
    const f = gate.run(async () => "f", false);
    const g = gate.run(async () => "g", false);
    expect(await Promise.all([f, g])).toEqual([
      { busy: false, value: "f" },
      { busy: false, value: "g" },
    ]);
  });

  it("frees the slot when a check throws", async () => {
    const gate = createCheckGate({ maxConcurrent: 1, maxQueued: 0 });
    await expect(gate.run(() => Promise.reject(new Error("boom")), false)).rejects.toThrow("boom");
    expect(await gate.run(async () => 1, false)).toEqual({ busy: false, value: 1 });
  });
});
