import { describe, expect, it } from "vitest";
import { hashSecret, verifySecret } from "./secret-hash.js";

describe("secret hashing", () => {
  it("verifies the right secret and rejects others; hashes are salted", async () => {
    const a = await hashSecret("cs_correct horse");
    const b = await hashSecret("cs_correct horse");
    expect(a).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain("correct");
    expect(await verifySecret("cs_correct horse", a)).toBe(true);
    expect(await verifySecret("cs_correct horsE", a)).toBe(false);
    expect(await verifySecret("cs_correct horse", "plain$text")).toBe(false);
  });
});
