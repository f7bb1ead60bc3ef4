import { describe, expect, it } from "vitest";
import { parseBasicCredentials } from "./basic-credentials.js";

const basic = (s: string) => `Basic ${Buffer.from(s).toString("base64")}`;

describe("parseBasicCredentials", () => {
  it.each([
    [basic("ci_1:cs_2"), { clientId: "ci_1", secret: "cs_2" }],
    [basic("ci_1:cs:with:colons"), { clientId: "ci_1", secret: "cs:with:colons" }],
    [`basic ${Buffer.from("a:b").toString("base64")}`, { clientId: "a", secret: "b" }],
  ])("parses %s", (header, expected) => {
    expect(parseBasicCredentials(header)).toEqual(expected);
  });

  it.each([
    undefined,
    "",
    "Bearer abc",
    "Basic",
    "Basic !!!",
    basic("nocolon"),
    basic(":secret"),
    basic("id:"),
    basic("ci_\u0000:secret"),
    basic("ci_1:sec\u0000ret"),
  ])("rejects %s", (header) => {
    expect(parseBasicCredentials(header)).toBeUndefined();
  });
});
