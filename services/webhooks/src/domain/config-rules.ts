/**
 * Rules for the credentials a partner attaches to a receiver configuration. The URL and the event filter
 * have their own rules (address-policy, event-kinds).
 */
import { randomBytes } from "node:crypto";
import { fail, ok, type Result } from "./result.js";
import { type BasicAuth, validateBasicAuth } from "./signature.js";

/** Shortest signing secret: 16 characters keep a brute force of the HMAC key out of reach. */
export const MIN_SECRET_LENGTH = 16;
export const MAX_SECRET_LENGTH = 256;
export const MAX_BASIC_AUTH_FIELD_LENGTH = 256;

export function validateSecret(secret: string): Result<string> {
  if (secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH) {
    return fail(
      "INVALID_FIELD",
      `secret must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters`,
      "secret",
    );
  }
  if (/\p{Cc}/u.test(secret))
    return fail("INVALID_FIELD", "secret must not contain control characters", "secret");
  return ok(secret);
}

export function validateBasicAuthInput(auth: BasicAuth): Result<BasicAuth> {
  if (
    auth.username.length > MAX_BASIC_AUTH_FIELD_LENGTH ||
    auth.password.length > MAX_BASIC_AUTH_FIELD_LENGTH
  ) {
    return fail(
      "INVALID_FIELD",
      `basic_auth username and password must be at most ${MAX_BASIC_AUTH_FIELD_LENGTH} characters`,
      "basic_auth",
    );
  }
  if (auth.password === "")
    return fail("INVALID_FIELD", "basic_auth.password must not be empty", "basic_auth");
  return validateBasicAuth(auth);
}

/** How long a rotated-out secret keeps signing when the rotation names no grace period. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 60 * 60;
/** The longest grace period: two live secrets for longer than a week would defeat the rotation. */
export const MAX_ROTATION_GRACE_SECONDS = 7 * 24 * 60 * 60;

export function validateGracePeriod(seconds: number | undefined): Result<number> {
  if (seconds === undefined) return ok(DEFAULT_ROTATION_GRACE_SECONDS);
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > MAX_ROTATION_GRACE_SECONDS) {
    return fail(
      "INVALID_FIELD",
      `grace_period_seconds must be an integer from 0 to ${MAX_ROTATION_GRACE_SECONDS}`,
      "grace_period_seconds",
    );
  }
  return ok(seconds);
}

/** A new signing secret when the partner asks the dispatcher to choose: 256 random bits, base64url. */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}
