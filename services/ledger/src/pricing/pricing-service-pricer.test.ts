import { Code, ConnectError } from "@connectrpc/connect";
import { errorDetailOf, serviceError } from "@payouts/platform/rpc/service-error";
import { describe, expect, it } from "vitest";
import { LedgerFailure } from "../domain/ledger-failure.js";
import { pricingFailure } from "./pricing-service-pricer.js";

describe("pricingFailure: what the ledger answers when pricing failed", () => {
  it("relays a documented refusal as pricing gave it, without pricing's response headers", () => {
    const refusal = serviceError<"AMOUNT_OUT_OF_RANGE">("AMOUNT_OUT_OF_RANGE", "amount above 50000", {
      field: "amount",
      metadata: { max: "50000" },
    });
    refusal.metadata.set("content-type", "application/proto");
    const relayed = pricingFailure(refusal);
    expect(relayed).toBeInstanceOf(ConnectError);
    expect(relayed).not.toBe(refusal);
    const error = relayed as ConnectError;
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.rawMessage).toBe("amount above 50000");
    expect(errorDetailOf(error)).toMatchObject({
      reason: "AMOUNT_OUT_OF_RANGE",
      field: "amount",
      metadata: { max: "50000" },
    });
    expect([...error.metadata.keys()]).toEqual([]);
  });

  it("relays pricing's own SERVICE_UNAVAILABLE (its database down) with its Retry-After", () => {
    const down = serviceError<"SERVICE_UNAVAILABLE">("SERVICE_UNAVAILABLE", "database unavailable", {
      code: Code.Unavailable,
      metadata: { retry_after_seconds: "2" },
    });
    const relayed = pricingFailure(down) as ConnectError;
    expect(relayed.code).toBe(Code.Unavailable);
    expect(errorDetailOf(relayed)?.metadata).toEqual({ retry_after_seconds: "2" });
  });

  it.each([Code.Unavailable, Code.DeadlineExceeded, Code.Aborted, Code.Canceled])(
    "answers SERVICE_UNAVAILABLE when pricing did not answer (code %s)",
    (code) => {
      const failure = pricingFailure(new ConnectError("connect ECONNREFUSED 127.0.0.1:50052", code));
      expect(failure).toBeInstanceOf(LedgerFailure);
      expect(failure).toMatchObject({ reason: "SERVICE_UNAVAILABLE" });
      // The partner-facing message names no address.
      expect((failure as LedgerFailure).message).not.toContain("127.0.0.1");
    },
  );

  it("leaves anything else an internal error", () => {
    const denied = new ConnectError("caller ledger may not call CreateQuote", Code.PermissionDenied);
    expect(pricingFailure(denied)).toBe(denied);
    const bug = new TypeError("x is undefined");
    expect(pricingFailure(bug)).toBe(bug);
  });
});
