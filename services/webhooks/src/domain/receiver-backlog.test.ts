import { describe, expect, it } from "vitest";
import { type ReceiverFigures, receiverStatus, summarizeBacklogs } from "./receiver-backlog.js";

const NOW = new Date("2026-01-01T12:00:00Z");
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

const receiver = (configId: string, over: Partial<ReceiverFigures> = {}): ReceiverFigures => ({
  configId,
  partnerId: `ptr_${configId}`,
  active: true,
  paused: false,
  circuitState: "closed",
  pending: 0,
  oldestPendingAt: null,
  ...over,
});

describe("summarizeBacklogs", () => {
  it("totals pending rows and the oldest age by receiver status, and counts circuits and pauses", () => {
    const s = summarizeBacklogs(
      [
        receiver("a", { pending: 5, oldestPendingAt: ago(60) }),
        receiver("b", { pending: 2, oldestPendingAt: ago(400), circuitState: "open" }),
        receiver("c", { pending: 7, oldestPendingAt: ago(9000), paused: true }),
        receiver("d", { pending: 1, oldestPendingAt: ago(50), active: false, paused: true }),
        receiver("e", { circuitState: "half_open" }),
      ],
      NOW,
      10,
    );
    expect(s.pending).toEqual({ active: 7, paused: 7, disabled: 1 });
    expect(s.oldestAgeSeconds).toEqual({ active: 400, paused: 9000, disabled: 50 });
    expect(s.circuits).toEqual({ open: 1, half_open: 1 });
    expect(s.paused).toBe(2);
  });

  it("gives series to the top N receivers only, largest backlog and oldest row first", () => {
    const many = Array.from({ length: 50 }, (_, i) =>
      receiver(`r${String(i).padStart(2, "0")}`, { pending: i + 1, oldestPendingAt: ago(1000 - i) }),
    );
    const s = summarizeBacklogs(many, NOW, 3);
    expect(s.topBacklog.map((r) => [r.configId, r.value])).toEqual([
      ["r49", 50],
      ["r48", 49],
      ["r47", 48],
    ]);
    expect(s.topOldestAge.map((r) => [r.configId, r.value])).toEqual([
      ["r00", 1000],
      ["r01", 999],
      ["r02", 998],
    ]);
    expect(s.topBacklog[0]?.partnerId).toBe("ptr_r49");
    expect(s.pending.active).toBe((50 * 51) / 2);
  });

  it("leaves receivers without a backlog out of the rankings and reports zeros when nothing waits", () => {
    const s = summarizeBacklogs([receiver("idle", { circuitState: "open" })], NOW, 10);
    expect(s.topBacklog).toEqual([]);
    expect(s.topOldestAge).toEqual([]);
    expect(s.pending).toEqual({ active: 0, paused: 0, disabled: 0 });
    expect(s.oldestAgeSeconds).toEqual({ active: 0, paused: 0, disabled: 0 });
  });

  it("ranks equal backlogs by config id, so a refresh keeps the same series", () => {
    const s = summarizeBacklogs([receiver("b", { pending: 3 }), receiver("a", { pending: 3 })], NOW, 1);
    expect(s.topBacklog.map((r) => r.configId)).toEqual(["a"]);
  });

  it("classifies a disabled receiver as disabled even when paused", () => {
    expect(receiverStatus({ active: false, paused: true })).toBe("disabled");
    expect(receiverStatus({ active: true, paused: true })).toBe("paused");
    expect(receiverStatus({ active: true, paused: false })).toBe("active");
  });
});
