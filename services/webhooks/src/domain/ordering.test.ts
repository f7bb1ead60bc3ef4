import { describe, expect, it } from "vitest";
import {
  batchCompletedHold,
  blockingDelivery,
  isSettled,
  mayDeliver,
  mayDeliverBatchCompleted,
  type SequencedDelivery,
} from "./ordering.js";

const d = (sequence: number, status: string): SequencedDelivery => ({ sequence: BigInt(sequence), status });

describe("isSettled", () => {
  it.each([
    ["delivered", true],
    ["dead", true],
    ["pending", false],
    ["in_flight", false],
    ["DELIVERED", false],
  ])("%s → %s", (status, expected) => {
    expect(isSettled(d(1, status))).toBe(expected);
  });
});

describe("mayDeliver", () => {
  it.each([
    ["no siblings", 2, [], true],
    ["only itself", 2, [d(2, "pending")], true],
    ["earlier delivered", 3, [d(1, "delivered"), d(2, "delivered"), d(3, "pending")], true],
    ["earlier dead", 3, [d(1, "dead"), d(3, "pending")], true],
    ["earlier pending", 3, [d(2, "pending"), d(3, "pending")], false],
    ["earlier in flight", 3, [d(2, "in_flight"), d(3, "pending")], false],
    [
      "an older one pending behind a delivered one",
      4,
      [d(1, "pending"), d(2, "delivered"), d(4, "pending")],
      false,
    ],
    ["later pending", 2, [d(2, "pending"), d(5, "pending")], true],
    ["gap in sequence", 7, [d(2, "delivered"), d(7, "pending")], true],
    ["equal sequence pending", 3, [d(3, "pending"), d(3, "pending")], true],
  ])("%s → %s", (_name, sequence, siblings, expected) => {
    expect(mayDeliver({ sequence: BigInt(sequence) }, siblings)).toBe(expected);
  });

  it("compares sequences as bigint beyond 2^53", () => {
    const big = 2n ** 60n;
    expect(mayDeliver({ sequence: big + 1n }, [{ sequence: big, status: "pending" }])).toBe(false);
    expect(mayDeliver({ sequence: big }, [{ sequence: big + 1n, status: "pending" }])).toBe(true);
  });
});

describe("blockingDelivery", () => {
  it("names the earliest unsettled predecessor", () => {
    const siblings = [d(4, "pending"), d(2, "pending"), d(1, "delivered"), d(3, "pending"), d(6, "pending")];
    expect(blockingDelivery({ sequence: 6n }, siblings)).toBe(siblings[1]);
  });

  it("is undefined when nothing blocks", () => {
    expect(blockingDelivery({ sequence: 3n }, [d(1, "dead"), d(2, "delivered")])).toBeUndefined();
  });
});

describe("ordering under a random scheduler", () => {
  // Deterministic PRNG so a failure is reproducible from the printed seed.
  function lcg(seed: number): () => number {
    let state = seed >>> 0;
    return () => {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      return state / 2 ** 32;
    };
  }

  it.each(Array.from({ length: 25 }, (_, i) => i + 1))(
    "seed %s: receivers see events in sequence order",
    (seed) => {
      const random = lcg(seed);
      const count = 2 + Math.floor(random() * 6);
      const rows = Array.from({ length: count }, (_, i) => ({
        sequence: BigInt(i * 2 + 1),
        status: "pending",
      }));
      const received: bigint[] = [];
      for (let step = 0; step < 500 && rows.some((row) => !isSettled(row)); step++) {
        const row = rows[Math.floor(random() * rows.length)];
        if (row === undefined || isSettled(row) || !mayDeliver(row, rows)) continue;
        const roll = random();
        if (roll < 0.5) {
          row.status = "delivered";
          received.push(row.sequence);
        } else if (roll < 0.6) {
          row.status = "dead";
        }
      }
      expect(rows.every(isSettled), `seed ${seed}`).toBe(true);
      expect(received, `seed ${seed}`).toEqual([...received].sort((a, b) => (a < b ? -1 : 1)));
    },
  );
});

describe("mayDeliverBatchCompleted", () => {
  const item = (status: string) => ({ status });
  const tally = (itemsExpected: number | undefined, itemsFinal: number) => ({ itemsExpected, itemsFinal });

  it.each([
    ["every item event delivered, all recorded", [item("delivered"), item("delivered")], tally(2, 2), true],
    ["an item event dead", [item("dead"), item("delivered")], tally(2, 2), true],
    ["an item event pending", [item("delivered"), item("pending")], tally(2, 2), false],
    ["an item event in flight", [item("delivering"), item("delivered")], tally(2, 2), false],
    // No configuration receives item events: only the intake's count can hold it back.
    ["no item deliveries, all recorded", [], tally(3, 3), true],
    ["no item deliveries, one not consumed yet", [], tally(3, 2), false],
    // The item event consumed after the batch's: its deliveries are settled but one more is awaited.
    ["item deliveries settled, one event not consumed yet", [item("delivered")], tally(2, 1), false],
    ["nothing paid", [], tally(0, 0), true],
    // A batch event without the count (before it existed) waits only for the deliveries it can see.
    ["no count from the batch event", [item("delivered")], tally(undefined, 1), true],
    ["nothing recorded for the batch", [], undefined, true],
  ])("%s → %s", (_name, deliveries, counts, expected) => {
    expect(mayDeliverBatchCompleted(deliveries, counts)).toBe(expected);
  });

  it("names what holds it back: an unsettled delivery first, then the missing count", () => {
    const pending = { status: "pending", id: "whd_2" };
    expect(batchCompletedHold([{ status: "delivered", id: "whd_1" }, pending], tally(5, 1))).toEqual({
      reason: "item-delivery-unsettled",
      delivery: pending,
    });
    expect(batchCompletedHold([{ status: "dead", id: "whd_1" }], tally(5, 1))).toEqual({
      reason: "item-events-missing",
      missing: 4,
    });
  });
});
