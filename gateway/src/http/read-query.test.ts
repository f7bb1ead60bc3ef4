import { describe, expect, it } from "vitest";
import { anyCase, QueryDate, StringEnum, serviceRule, type TObject, Type } from "../api/schema.js";
import { NO_QUERY, readQuery } from "./read-query.js";

const Shape = Type.Object({
  status: Type.Optional(anyCase(StringEnum(["PENDING", "SUCCESS"]))),
  from: Type.Optional(QueryDate("From.")),
  code: Type.Optional(Type.String({ pattern: "^[a-z]{2}$" })),
  ref: Type.Optional(Type.String({ maxLength: 5 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  on: Type.Optional(Type.Boolean()),
  owned: Type.Optional(serviceRule(Type.String({ pattern: "^x$" }))),
});

const refusal = (query: unknown, shape: TObject = Shape) => {
  try {
    readQuery(shape, query);
  } catch (error) {
    const { status, code, field, message } = error as Record<string, unknown>;
    return { status, code, field, message };
  }
  throw new Error("accepted");
};

describe("readQuery", () => {
  it("reads typed values, upper-cases anyCase text and applies the shape's default", () => {
    expect(
      readQuery(Shape, {
        status: "pending",
        from: "2026-11-01",
        code: "br",
        ref: "abc",
        on: "true",
        other: "x",
      }),
    ).toEqual({ status: "PENDING", from: "2026-11-01", code: "br", ref: "abc", limit: 20, on: true });
    expect(readQuery(Shape, { limit: "007", on: "false", owned: "anything" })).toEqual({
      limit: 7,
      on: false,
      owned: "anything",
    });
    expect(readQuery(Shape, { ref: "" })).toEqual({ limit: 20 });
  });

  it.each([["status"], ["limit"], ["from"], ["code"]])(
    "refuses %s given empty where its shape allows no empty string, naming it",
    (name) => {
      expect(() => readQuery(Shape, { [name]: "" })).toThrow(
        `${name} must not be empty; leave it out instead`,
      );
    },
  );

  it.each([
    [{ status: "nope" }, "status", "status must be one of PENDING, SUCCESS"],
    [{ from: "2026-13-01" }, "from", "from must be an ISO 8601 date or date-time with a time zone"],
    [{ from: "2026-11-01T10:00" }, "from", "from must be an ISO 8601 date or date-time with a time zone"],
    [{ code: "BRA" }, "code", "code is not well formed"],
    [{ ref: "abcdef" }, "ref", "ref must be given once, as at most 5 characters"],
    [{ ref: ["a", "b"] }, "ref", "ref must be given once, as at most 5 characters"],
    [{ code: "x".repeat(256) }, "code", "code must be given once, as at most 255 characters"],
    [{ limit: "0" }, "limit", "limit must be an integer from 1 to 100"],
    [{ limit: "101" }, "limit", "limit must be an integer from 1 to 100"],
    [{ limit: "0100" }, "limit", "limit must be an integer from 1 to 100"],
    [{ limit: "2.5" }, "limit", "limit must be an integer from 1 to 100"],
    [{ on: "yes" }, "on", "on must be true or false"],
    [{ owned: ["x", "x"] }, "owned", "owned must be given once"],
  ])("refuses %o as INVALID_FIELD naming the parameter", (query, field, message) => {
    expect(refusal(query)).toEqual({ status: 400, code: "INVALID_FIELD", field, message });
  });

  it("checks in the shape's order: the first failing parameter wins", () => {
    expect(refusal({ limit: "0", status: "nope" })).toMatchObject({ field: "status" });
  });

  it("refuses an absent required parameter, and a parameter a closed shape does not list", () => {
    const Required = Type.Object({ q: Type.String() }, { additionalProperties: false });
    expect(refusal({}, Required)).toEqual({
      status: 400,
      code: "MISSING_REQUIRED_FIELD",
      field: "q",
      message: "q is required",
    });
    expect(refusal({ q: "a", x: "1" }, Required)).toMatchObject({
      field: "x",
      message: "x is not a parameter of this route (q)",
    });
    expect(refusal({ dp: "2" }, NO_QUERY)).toMatchObject({
      field: "dp",
      message: "dp is not a parameter of this route (it takes none)",
    });
    expect(readQuery(NO_QUERY, undefined)).toEqual({});
  });

  it("refuses an empty value in a closed shape, naming it; in an open one only where its shape excludes it", () => {
    const Closed = Type.Object(
      { partner_id: Type.Optional(Type.String()), limit: Type.Optional(Type.Integer({ default: 20 })) },
      { additionalProperties: false },
    );
    expect(refusal({ partner_id: "" }, Closed)).toEqual({
      status: 400,
      code: "INVALID_FIELD",
      field: "partner_id",
      message: "partner_id must not be empty (leave the parameter out for no filter)",
    });
    expect(refusal({ limit: "" }, Closed)).toMatchObject({ field: "limit" });
    expect(readQuery(Closed, {})).toEqual({ limit: 20 });
    expect(readQuery(Shape, { ref: "" })).toEqual({ limit: 20 });
    expect(refusal({ limit: "" }, Shape)).toMatchObject({ code: "INVALID_FIELD", field: "limit" });
  });
});
