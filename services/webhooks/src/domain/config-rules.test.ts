import { describe, expect, it } from "vitest";
import {
  DEFAULT_ROTATION_GRACE_SECONDS,
  validateBasicAuthInput,
  validateGracePeriod,
  validateSecret,
} from "./config-rules.js";

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

describe("validateGracePeriod", () => {
  it("defaults to 24 h and accepts 0 to 7 days", () => {
    expect(validateGracePeriod(undefined)).toEqual({ ok: true, value: DEFAULT_ROTATION_GRACE_SECONDS });
    expect(DEFAULT_ROTATION_GRACE_SECONDS).toBe(86_400);
    expect(validateGracePeriod(0)).toEqual({ ok: true, value: 0 });
    expect(validateGracePeriod(604_800)).toEqual({ ok: true, value: 604_800 });
  });

  it.each([604_801, -1, 1.5])("refuses %s", (seconds) => {
    const result = validateGracePeriod(seconds);
    expect(result.ok).toBe(false);
    if (!result.ok)
      expect(result.error).toMatchObject({ code: "INVALID_FIELD", field: "grace_period_seconds" });
  });
});
