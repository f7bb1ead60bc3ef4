import { describe, expect, it } from "vitest";
import { validateSecret } from "../domain/config-rules.js";
import { generateSecret } from "./generate-secret.js";

describe("generateSecret", () => {
  it("is a valid secret of 256 random bits, different every time", () => {
    const a = generateSecret();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(validateSecret(a).ok).toBe(true);
    expect(generateSecret()).not.toBe(a);
  });
});
