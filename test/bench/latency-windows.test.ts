import { describe, expect, it } from "vitest";
import { latencyPerWindow } from "./latency-windows.js";

describe("latencyPerWindow", () => {
  it("takes p50 and p99 of the deliveries published in each window", () => {
    const deliveries = [
      ...Array.from({ length: 100 }, (_, i) => ({ publishedAt: 1000 + i * 10, latencyMs: i + 1 })),
      ...Array.from({ length: 100 }, (_, i) => ({ publishedAt: 91_000 + i * 10, latencyMs: 2 * (i + 1) })),
    ];
    expect(latencyPerWindow(deliveries, 60)).toEqual([
      { fromSecond: 0, deliveries: 100, p50: 50, p99: 99 },
      { fromSecond: 60, deliveries: 100, p50: 100, p99: 198 },
    ]);
  });

  it("merges a last window shorter than half a window into the one before", () => {
    const deliveries = [
      { publishedAt: 0, latencyMs: 1 },
      { publishedAt: 59_000, latencyMs: 2 },
      { publishedAt: 61_000, latencyMs: 300 },
    ];
    expect(latencyPerWindow(deliveries, 60)).toEqual([{ fromSecond: 0, deliveries: 3, p50: 2, p99: 300 }]);
  });

  it("keeps a last window of at least half a window, and skips empty windows", () => {
    const deliveries = [
      { publishedAt: 0, latencyMs: 5 },
      { publishedAt: 155_000, latencyMs: 7 },
    ];
    expect(latencyPerWindow(deliveries, 60)).toEqual([
      { fromSecond: 0, deliveries: 1, p50: 5, p99: 5 },
      { fromSecond: 120, deliveries: 1, p50: 7, p99: 7 },
    ]);
  });

  it("answers nothing for no deliveries and refuses a window that is not positive", () => {
    expect(latencyPerWindow([], 60)).toEqual([]);
    expect(() => latencyPerWindow([{ publishedAt: 0, latencyMs: 1 }], 0)).toThrow(RangeError);
  });
});
