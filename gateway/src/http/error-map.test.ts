import { Code, ConnectError } from "@connectrpc/connect";
import { serviceError } from "@payouts/platform/rpc/service-error";
import { describe, expect, it } from "vitest";
import { httpStatusFor, isDependencyUnavailable } from "./error-map.js";

/** An error shaped like node-postgres' DatabaseError or a failed socket (code plus message). */
const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDependencyUnavailable", () => {
  it.each([
    ["a service not listening", new ConnectError("connect ECONNREFUSED", Code.Unavailable)],
    ["a service that did not answer in time", new ConnectError("deadline", Code.DeadlineExceeded)],
    // What Connect reports when the service process dies (kill -9) during the call (seen by the chaos suite).
    ["a service whose connection was reset mid-call", new ConnectError("read ECONNRESET", Code.Aborted)],
    [
      "a service whose HTTP/2 stream was cancelled mid-call",
      new ConnectError("http/2 stream closed with error code CANCEL (0x8)", Code.Canceled),
    ],
    ["PostgreSQL refusing connections", coded("ECONNREFUSED")],
    ["a connection reset", coded("ECONNRESET")],
    ["admin shutdown (fast restart)", coded("57P01", "terminating connection due to administrator command")],
    ["crash shutdown", coded("57P02")],
    ["the server starting up", coded("57P03", "the database system is starting up")],
    ["a connection exception", coded("08006")],
    ["too many connections", coded("53300")],
    ["a connection that ended", new Error("Connection terminated unexpectedly")],
    ["a pool that could not connect in time", new Error("timeout exceeded when trying to connect")],
    ["a wrapped cause", new Error("transaction failed", { cause: coded("57P01") })],
  ])("counts %s", (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", coded("23505")],
    ["a serialization failure", coded("40001")],
    ["a plain bug", new TypeError("undefined is not a function")],
    ["a service's internal error", new ConnectError("internal error", Code.Internal)],
    [
      "a documented abort that carries its reason",
      serviceError("IDEMPOTENCY_KEY_IN_USE", "busy", { code: Code.Aborted }),
    ],
    [
      "a documented failure that carries its reason",
      serviceError("RATE_LIMIT_EXCEEDED", "slow down", { code: Code.Unavailable }),
    ],
    ["nothing", undefined],
    ["a string", "Connection terminated"],
  ])("does not count %s", (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });
});

describe("httpStatusFor", () => {
  it("maps UNAVAILABLE and DEADLINE_EXCEEDED without a known reason to 503", () => {
    expect(httpStatusFor("", Code.Unavailable)).toBe(503);
    expect(httpStatusFor("", Code.DeadlineExceeded)).toBe(503);
    expect(httpStatusFor("INSUFFICIENT_FUNDS", Code.Unavailable)).toBe(409);
  });
});
