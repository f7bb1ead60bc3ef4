import { describe, expect, it } from "vitest";
import type { WorkRow } from "../store/work-queue.js";
import { groupsByBatch } from "./batch-workers.js";

const row = (batchId: string, itemRef: string): WorkRow => ({
  batchId,
  itemRef,
  kind: "execute",
  version: 1,
  attempts: 0,
});

const refs = (groups: WorkRow[][]) => groups.map((g) => g.map((r) => `${r.batchId}/${r.itemRef}`));

describe("groupsByBatch", () => {
  it("never puts two batches' items in one group, and keeps each batch's claim order", () => {
    const rows = [row("b1", "1"), row("b2", "1"), row("b1", "2"), row("b2", "2"), row("b1", "3")];
    expect(refs(groupsByBatch(rows, 25))).toEqual([
      ["b1/1", "b1/2", "b1/3"],
      ["b2/1", "b2/2"],
    ]);
  });

  it("cuts a batch's items into groups of at most the size", () => {
    const rows = Array.from({ length: 7 }, (_, i) => row("b", String(i)));
    expect(groupsByBatch(rows, 3).map((g) => g.length)).toEqual([3, 3, 1]);
    expect(groupsByBatch(rows, 3).flat()).toEqual(rows);
  });

  it("gives nothing for nothing", () => {
    expect(groupsByBatch([], 25)).toEqual([]);
  });
});
