import { describe, expect, it } from "vitest";
import { camelCaseKeys } from "./camel-case-keys.js";

describe("camelCaseKeys", () => {
  it("names every column in camelCase and keeps its value as read", () => {
    const createdAt = new Date("2026-01-02T03:04:05Z");
    const row = {
      approval_id: "apr_1",
      requested_by_name: "ada",
      created_at: createdAt,
      outcome: null,
      status: "PENDING",
    };
    expect(camelCaseKeys(row)).toEqual({
      approvalId: "apr_1",
      requestedByName: "ada",
      createdAt,
      outcome: null,
      status: "PENDING",
    });
    expect(camelCaseKeys(row).createdAt).toBe(createdAt);
  });

  it("joins a digit after an underscore as it joins a letter", () => {
    expect(camelCaseKeys({ line_1: "a", address_line_2: "b" })).toEqual({ line1: "a", addressLine2: "b" });
  });
});
