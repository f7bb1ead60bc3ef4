/**
 * Rules for the credentials a partner attaches to a receiver configuration. The URL and the event filter
 * have their own rules (address-policy, event-kinds).
 */
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
