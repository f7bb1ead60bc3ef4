import { describe, expect, it } from "vitest";
import { attemptedUserOf } from "./audit-trail.js";

describe("the user name an anonymous caller tried", () => {
  it("is read from the sign-in body's user name field, never from anything else", () => {
    expect(attemptedUserOf({ username: "ada", password: "x" })).toBe("ada");
    expect(attemptedUserOf({ user_name: "grace" })).toBe("grace");
    expect(attemptedUserOf({ email: "ops@example.com", totp: "123456" })).toBe("ops@example.com");
    expect(attemptedUserOf({ username: "u".repeat(500) })?.length).toBe(200);
    expect(attemptedUserOf({ name: "partner", username: 7 })).toBeNull();
    expect(attemptedUserOf(undefined)).toBeNull();
    expect(attemptedUserOf("ada")).toBeNull();
  });
});
