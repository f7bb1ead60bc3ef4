import { Code, ConnectError } from "@connectrpc/connect";
import { LEDGER_REASONS, type LedgerReason } from "@payouts/ledger/reasons";
import { LOOKUP_REASONS } from "@payouts/lookup/reasons";
import { PLATFORM_REASONS } from "@payouts/platform/domain-result";
import { serviceError } from "@payouts/platform/rpc/service-error";
import { PRICING_REASONS } from "@payouts/pricing/reasons";
import { RAIL_REASONS } from "@payouts/sandbox-rail/reasons";
import { WEBHOOKS_REASONS, type WebhooksReason } from "@payouts/webhooks/reasons";
import { describe, expect, it } from "vitest";
import {
  GATEWAY_REASONS,
  httpStatusFor,
  isDependencyUnavailable,
  isReason,
  type Reason,
} from "./error-map.js";

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
      serviceError<LedgerReason>("IDEMPOTENCY_KEY_IN_USE", "busy", { code: Code.Aborted }),
    ],
    [
      "a documented failure that carries its reason",
      serviceError<WebhooksReason>("RATE_LIMIT_EXCEEDED", "slow down", { code: Code.Unavailable }),
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

describe("the reason table", () => {
  const declared: readonly string[] = [
    ...GATEWAY_REASONS,
    ...PLATFORM_REASONS,
    ...LOOKUP_REASONS,
    ...PRICING_REASONS,
    ...LEDGER_REASONS,
    ...WEBHOOKS_REASONS,
    ...RAIL_REASONS,
  ];

  it("gives every reason any service declares a 4xx or 5xx status, whatever gRPC code carries it", () => {
    for (const reason of declared) {
      expect(isReason(reason)).toBe(true);
      for (const code of [Code.InvalidArgument, Code.NotFound, Code.FailedPrecondition]) {
        expect(httpStatusFor(reason, code)).toBeGreaterThanOrEqual(400);
      }
    }
  });

  it("keeps the partner API's statuses", () => {
    expect(httpStatusFor("INVALID_AMOUNT", Code.InvalidArgument)).toBe(400);
    expect(httpStatusFor("AUTHENTICATION_REQUIRED", Code.Unauthenticated)).toBe(401);
    expect(httpStatusFor("TRANSACTION_NOT_FOUND", Code.NotFound)).toBe(404);
    expect(httpStatusFor("TRANSACTION_NOT_PENDING", Code.FailedPrecondition)).toBe(409);
    expect(httpStatusFor("IDEMPOTENCY_KEY_REUSED", Code.FailedPrecondition)).toBe(422);
    expect(httpStatusFor("RATE_LIMIT_EXCEEDED", Code.ResourceExhausted)).toBe(429);
    expect(httpStatusFor("SERVICE_UNAVAILABLE", Code.Unavailable)).toBe(503);
  });

  it("leaves CUSTOMER_NOT_FOUND to the call: 400 in a body, 404 as the resource asked for", () => {
    expect(httpStatusFor("CUSTOMER_NOT_FOUND", Code.InvalidArgument)).toBe(400);
    expect(httpStatusFor("CUSTOMER_NOT_FOUND", Code.NotFound)).toBe(404);
  });

  it("answers a reason no one declares by its gRPC code, and 500 without one", () => {
    expect(isReason("NOT_A_REASON")).toBe(false);
    expect(httpStatusFor("NOT_A_REASON", Code.NotFound)).toBe(404);
    expect(httpStatusFor("NOT_A_REASON", Code.Internal)).toBe(500);
  });

  it("is checked by the compiler: an undeclared reason is not a Reason", () => {
    // @ts-expect-error a code no service and not the gateway declares does not compile
    const undeclared: Reason = "NOT_A_REASON";
    expect(isReason(undeclared)).toBe(false);
  });
});
