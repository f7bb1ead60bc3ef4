import { describe, expect, it } from "vitest";
import {
  afterAnswer,
  createReceiverLimits,
  limitSignal,
  type ReceiverLimitSettings,
  startingLimit,
  usableLimit,
} from "./receiver-limit.js";

const SETTINGS: ReceiverLimitSettings = { initial: 4, max: 32, fastMs: 1_000 };

describe("limitSignal", () => {
  it("grows on a fast 2xx, cuts on no answer, a 5xx or a 429, holds otherwise", () => {
    expect(limitSignal({ status: 200, latencyMs: 10 }, 1_000)).toBe("grow");
    expect(limitSignal({ status: 204, latencyMs: 1_000 }, 1_000)).toBe("grow");
    expect(limitSignal({ status: 200, latencyMs: 1_001 }, 1_000)).toBe("hold");
    expect(limitSignal({ status: 503, latencyMs: 5 }, 1_000)).toBe("cut");
    expect(limitSignal({ status: 429, latencyMs: 5 }, 1_000)).toBe("cut");
    expect(limitSignal({ error: "timeout", latencyMs: 10_000 }, 1_000)).toBe("cut");
    expect(limitSignal({ error: "connect ECONNREFUSED", latencyMs: 1 }, 1_000)).toBe("cut");
    expect(limitSignal({ error: "not notified", local: true, latencyMs: 0 }, 1_000)).toBe("hold");
    expect(limitSignal({ status: 400, latencyMs: 5 }, 1_000)).toBe("hold");
    expect(limitSignal({ status: 302, latencyMs: 5 }, 1_000)).toBe("hold");
  });
});

describe("afterAnswer", () => {
  it("adds about one per round of answers while the limit is used, up to the most", () => {
    let state = startingLimit(SETTINGS);
    for (let i = 0; i < 5; i++)
      state = afterAnswer(state, { signal: "grow", inFlight: 4, sentAfterCuts: 0 }, SETTINGS);
    expect(usableLimit(state)).toBe(5);
    for (let i = 0; i < 10_000; i++) {
      state = afterAnswer(
        state,
        { signal: "grow", inFlight: usableLimit(state), sentAfterCuts: 0 },
        SETTINGS,
      );
    }
    expect(state.limit).toBe(32);
  });

  it("does not grow a limit the receiver is not using", () => {
    const state = { limit: 10, cuts: 0 };
    expect(afterAnswer(state, { signal: "grow", inFlight: 4, sentAfterCuts: 0 }, SETTINGS)).toBe(state);
    expect(afterAnswer(state, { signal: "grow", inFlight: 5, sentAfterCuts: 0 }, SETTINGS).limit).toBeCloseTo(
      10.1,
    );
  });

  it("halves once per round, never below the start", () => {
    const state = { limit: 30, cuts: 2 };
    const cut = afterAnswer(state, { signal: "cut", inFlight: 30, sentAfterCuts: 2 }, SETTINGS);
    expect(cut).toEqual({ limit: 15, cuts: 3 });
    // Requests sent before that cut answer with failures too: no second cut for the same round.
    expect(afterAnswer(cut, { signal: "cut", inFlight: 29, sentAfterCuts: 2 }, SETTINGS)).toBe(cut);
    let low = cut;
    for (let round = 3; round < 10; round++)
      low = afterAnswer(low, { signal: "cut", inFlight: 1, sentAfterCuts: round }, SETTINGS);
    expect(low.limit).toBe(4);
  });
});

describe("createReceiverLimits", () => {
  it("tracks each receiver apart, reports only limits above the start, and forgets plain idle receivers", () => {
    const limits = createReceiverLimits(SETTINGS);
    for (let i = 0; i < 40; i++) {
      const tickets = [0, 1, 2, 3].map(() => limits.start("whc_fast"));
      for (const ticket of tickets) {
        ticket.answered({ status: 200, latencyMs: 5 });
        ticket.end();
      }
      const slow = limits.start("whc_slow");
      slow.answered({ error: "timeout", latencyMs: 10_000 });
      slow.end();
    }
    expect(limits.limitOf("whc_fast")).toBeGreaterThan(4);
    expect(limits.limitOf("whc_slow")).toBe(4);
    expect(Object.keys(limits.aboveInitial())).toEqual(["whc_fast"]);
    expect(limits.largest()).toBe(limits.limitOf("whc_fast"));

    const failing = limits.start("whc_fast");
    failing.answered({ status: 503, latencyMs: 5 });
    failing.answered({ status: 200, latencyMs: 5 });
    failing.end();
    failing.end();
    expect(limits.limitOf("whc_fast")).toBe(4);
    expect(limits.aboveInitial()).toEqual({});
  });

  it("refuses a most below the start", () => {
    expect(() => createReceiverLimits({ initial: 8, max: 4, fastMs: 1 })).toThrow(/below its start/);
  });
});
