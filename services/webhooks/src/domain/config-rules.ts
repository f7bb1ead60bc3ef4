/**
 * Rules for the credentials a partner attaches to a receiver configuration. The URL and the event filter
 * have their own rules (address-policy, event-kinds).
 */
import { fail, ok, type Result } from "./result.js";

/** Shortest signing secret: 16 characters keep a brute force of the HMAC key out of reach. */
export const MIN_SECRET_LENGTH = 16;
export const MAX_SECRET_LENGTH = 256;
export const MAX_BASIC_AUTH_FIELD_LENGTH = 256;

export interface BasicAuth {
  readonly username: string;
  readonly password: string;
}

/** For configuration input: a colon in the user name would shift it into the password on the receiver. */
export function validateBasicAuth(auth: BasicAuth): Result<BasicAuth> {
  const field = "basic_auth";
  if (auth.username === "" || auth.username.includes(":")) {
    return fail("INVALID_FIELD", "basic_auth.username must be non-empty and contain no colon", field);
  }
  if (hasControlCharacter(auth.username) || hasControlCharacter(auth.password)) {
    return fail("INVALID_FIELD", "basic_auth must not contain control characters", field);
  }
  return ok(auth);
}

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

function hasControlCharacter(value: string): boolean {
  return /\p{Cc}/u.test(value);
}
