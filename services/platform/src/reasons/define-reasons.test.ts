import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { errorDetailOf } from "../rpc/service-error.js";
import { defineReasons } from "./define-reasons.js";
import { rejectionsFor } from "./reason-rejections.js";

const REASONS = defineReasons({
  INVALID_FIELD: {},
  THING_NOT_FOUND: {
    status: "NotFound",
    template: (id: string) => ({ message: `thing ${id} not found`, field: "thing_id" }),
  },
  BUSY: { status: "Aborted", retryAfterSeconds: 2, template: () => ({ message: "busy; retry" }) },
});
const { rejection, valueOrReject, reject } = rejectionsFor(REASONS);

describe("defineReasons", () => {
  it("lists the codes in the table's order, each with its status (InvalidArgument by default)", () => {
    expect(REASONS.codes).toEqual(["INVALID_FIELD", "THING_NOT_FOUND", "BUSY"]);
    expect(REASONS.codes.map(REASONS.statusOf)).toEqual(["InvalidArgument", "NotFound", "Aborted"]);
  });

  it("makes domain failures with a field only when one is given", () => {
    expect(REASONS.fail("INVALID_FIELD", "x is bad")).toEqual({
      ok: false,
      error: { code: "INVALID_FIELD", message: "x is bad" },
    });
    expect(REASONS.error("INVALID_FIELD", "x is bad", "x")).toEqual({
      code: "INVALID_FIELD",
      message: "x is bad",
      field: "x",
    });
    expect(Object.keys(REASONS.of("BUSY"))).toEqual(["code", "message"]);
  });

  it("words a templated reason from its facts", () => {
    expect(REASONS.of("THING_NOT_FOUND", "t1")).toEqual({
      code: "THING_NOT_FOUND",
      message: "thing t1 not found",
      field: "thing_id",
    });
  });
});

describe("rejectionsFor", () => {
  it("answers with the table's status, reason, field and retry hint", () => {
    const notFound = reject("THING_NOT_FOUND", "t2");
    expect([notFound.code, notFound.rawMessage]).toEqual([Code.NotFound, "thing t2 not found"]);
    expect(errorDetailOf(notFound)).toMatchObject({
      reason: "THING_NOT_FOUND",
      field: "thing_id",
      metadata: {},
    });
    const busy = rejection(REASONS.of("BUSY"), { metadata: { request_id: "r1" } });
    expect(busy.code).toBe(Code.Aborted);
    expect(errorDetailOf(busy)?.metadata).toEqual({ retry_after_seconds: "2", request_id: "r1" });
  });

  it("lets a call override the status, and throws a failed result's error", () => {
    expect(rejection(REASONS.of("THING_NOT_FOUND", "t3"), { status: Code.InvalidArgument }).code).toBe(
      Code.InvalidArgument,
    );
    expect(valueOrReject({ ok: true, value: 7 })).toBe(7);
    expect(() => valueOrReject(REASONS.fail("INVALID_FIELD", "bad", "y"))).toThrow(
      expect.objectContaining({ code: Code.InvalidArgument, rawMessage: "bad" }),
    );
  });
});
