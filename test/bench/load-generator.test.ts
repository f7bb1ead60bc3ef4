import { describe, expect, it } from "vitest";
import { classifyAnswer } from "./load-generator.js";

describe("classifyAnswer", () => {
  const refusal = '{"code":"TRANSACTION_NOT_PENDING","message":"x","request_id":"r"}';
  it.each([
    ["a 200 with no expectation", 200, "{}", undefined, "ok"],
    ["a 200 when 200 is expected", 200, "{}", { status: 200 }, "ok"],
    ["a 201 when 200 is expected", 201, "{}", { status: 200 }, "unintended"],
    ["a 500 with no expectation", 500, '{"code":"INTERNAL"}', undefined, "unintended"],
    [
      "the provoked 409 with its code",
      409,
      refusal,
      { status: 409, code: "TRANSACTION_NOT_PENDING" },
      "intended",
    ],
    [
      "a 409 with another code",
      409,
      '{"code":"QUOTE_EXPIRED"}',
      { status: 409, code: "TRANSACTION_NOT_PENDING" },
      "unintended",
    ],
    [
      "a 409 whose body is not JSON",
      409,
      "oops",
      { status: 409, code: "TRANSACTION_NOT_PENDING" },
      "unintended",
    ],
    [
      "a 200 when the 409 was provoked",
      200,
      "{}",
      { status: 409, code: "TRANSACTION_NOT_PENDING" },
      "unintended",
    ],
    ["a 429 when any 429 is expected", 429, "", { status: 429 }, "intended"],
  ] as const)("%s", (_name, status, body, expectation, verdict) => {
    expect(classifyAnswer(status, body, expectation)).toBe(verdict);
  });
});
