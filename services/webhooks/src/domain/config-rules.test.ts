import { describe, expect, it } from "vitest";
import { validateBasicAuthInput, validateSecret } from "./config-rules.js";

describe("validateSecret", () => {
  it.each([
    ["0123456789abcdef", true],
    ["x".repeat(256), true],
    ["0123456789abcde", false],
    ["x".repeat(257), false],
    ["0123456789abcdef\n", false],
    ["", false],
  ])("%j → %s", (secret, valid) => {
    const result = validateSecret(secret);
    expect(result.ok).toBe(valid);
    if (!result.ok) expect(result.error).toMatchObject({ code: "INVALID_FIELD", field: "secret" });
  });
});

describe("validateBasicAuthInput", () => {
  it.each([
    [{ username: "hooks", password: "p4ss" }, true],
    [{ username: "hooks", password: "" }, false],
    [{ username: "", password: "p4ss" }, false],
    [{ username: "a:b", password: "p4ss" }, false],
    [{ username: "hooks", password: "x".repeat(257) }, false],
    [{ username: "hooks", password: "line\r\nbreak" }, false],
  ])("%j → %s", (auth, valid) => {
    const result = validateBasicAuthInput(auth);
    expect(result.ok).toBe(valid);
    if (!result.ok) expect(result.error).toMatchObject({ code: "INVALID_FIELD", field: "basic_auth" });
  });
});
