import { describe, expect, it } from "vitest";
import {
  admission,
  afterAttempts,
  type Circuit,
  CLOSED_CIRCUIT,
  circuitEffect,
  type ObservedAttempt,
  probeTaken,
  transition,
} from "./circuit-breaker.js";

const SETTINGS = { failureThreshold: 3, probeIntervalMs: 2_000 };
const T = 1_700_000_000_000;
const fail = (atMs: number): ObservedAttempt => ({ effect: "failure", atMs });
const succeed = (atMs: number): ObservedAttempt => ({ effect: "success", atMs });

describe("circuitEffect", () => {
  it.each([
    [{ status: 200 }, "success"],
    [{ status: 204 }, "success"],
    [{ status: 302 }, "success"],
    [{ status: 400 }, "success"],
    [{ status: 404 }, "success"],
    [{ status: 410 }, "success"],
    [{ status: 429 }, "success"],
    [{ status: 500 }, "failure"],
    [{ status: 503 }, "failure"],
    [{ status: 599 }, "failure"],
    [{ error: "connection refused" }, "failure"],
    [{ error: "host not found (ENOTFOUND)" }, "failure"],
    [{ error: "timed out after 10000 ms" }, "failure"],
    [{ error: "connection reset by the receiver" }, "failure"],
    [{ error: "attempt abandoned: the claim's lease is running out", local: true }, "none"],
  ] as const)("%j → %s", (observation, effect) => {
    expect(circuitEffect(observation)).toBe(effect);
  });
});

describe("afterAttempts", () => {
  it("counts failures while closed and opens at the threshold, probing one interval after the last", () => {
    const two = afterAttempts(CLOSED_CIRCUIT, [fail(T), fail(T + 10)], SETTINGS);
    expect(two).toEqual({ state: "closed", failures: 2, openedAtMs: null, retryAtMs: null });
    const three = afterAttempts(two, [fail(T + 20)], SETTINGS);
    expect(three).toEqual({ state: "open", failures: 3, openedAtMs: T + 20, retryAtMs: T + 2_020 });
    // One batch reaching the threshold at once.
    expect(afterAttempts(CLOSED_CIRCUIT, [fail(T + 5), fail(T), fail(T + 1)], SETTINGS)).toEqual({
      state: "open",
      failures: 3,
      openedAtMs: T + 5,
      retryAtMs: T + 2_005,
    });
  });

  it("resets on a success; only failures after the batch's last success count", () => {
    const closedWithTwo: Circuit = { ...CLOSED_CIRCUIT, failures: 2 };
    expect(afterAttempts(closedWithTwo, [succeed(T)], SETTINGS)).toEqual(CLOSED_CIRCUIT);
    expect(afterAttempts(closedWithTwo, [fail(T), succeed(T + 1), fail(T + 2)], SETTINGS)).toEqual({
      ...CLOSED_CIRCUIT,
      failures: 1,
    });
  });

  it("re-opens on a failed probe, keeping when it first opened", () => {
    const open: Circuit = { state: "open", failures: 3, openedAtMs: T, retryAtMs: T + 2_000 };
    const probing = probeTaken(open, T + 2_100, 12_000);
    expect(probing).toEqual({ state: "half_open", failures: 3, openedAtMs: T, retryAtMs: T + 14_100 });
    expect(afterAttempts(probing, [fail(T + 2_200)], SETTINGS)).toEqual({
      state: "open",
      failures: 4,
      openedAtMs: T,
      retryAtMs: T + 4_200,
    });
  });

  it("closes on a successful probe, and on any HTTP answer below 500", () => {
    const probing: Circuit = { state: "half_open", failures: 7, openedAtMs: T, retryAtMs: T + 12_000 };
    expect(afterAttempts(probing, [succeed(T + 1)], SETTINGS)).toEqual(CLOSED_CIRCUIT);
    expect(afterAttempts(probing, [{ effect: circuitEffect({ status: 404 }), atMs: T }], SETTINGS)).toEqual(
      CLOSED_CIRCUIT,
    );
  });

  it("leaves the circuit alone for attempts that say nothing about the receiver", () => {
    const open: Circuit = { state: "open", failures: 3, openedAtMs: T, retryAtMs: T + 2_000 };
    expect(afterAttempts(open, [{ effect: "none", atMs: T + 5 }], SETTINGS)).toBe(open);
    expect(afterAttempts(CLOSED_CIRCUIT, [], SETTINGS)).toBe(CLOSED_CIRCUIT);
  });
});

describe("admission", () => {
  const open: Circuit = { state: "open", failures: 5, openedAtMs: T, retryAtMs: T + 2_000 };
  it("takes everything of a closed receiver, one probe of a due open one, nothing otherwise", () => {
    expect(admission(CLOSED_CIRCUIT, false, T)).toBe("all");
    expect(admission(open, false, T + 1_999)).toBe("none");
    expect(admission(open, false, T + 2_000)).toBe("probe");
    // A half-open probe whose lease ran out (its worker died) is probed again.
    expect(admission(probeTaken(open, T + 2_000, 12_000), false, T + 13_999)).toBe("none");
    expect(admission(probeTaken(open, T + 2_000, 12_000), false, T + 14_000)).toBe("probe");
  });

  it("takes nothing of a paused receiver", () => {
    expect(admission(CLOSED_CIRCUIT, true, T)).toBe("none");
    expect(admission(open, true, T + 60_000)).toBe("none");
  });
});

describe("transition", () => {
  it("names the changes worth counting", () => {
    expect(transition("closed", "open")).toBe("opened");
    expect(transition("half_open", "closed")).toBe("closed");
    expect(transition("open", "closed")).toBe("closed");
    expect(transition("half_open", "open")).toBeUndefined();
    expect(transition("closed", "closed")).toBeUndefined();
  });
});
