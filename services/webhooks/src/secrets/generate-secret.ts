import { randomBytes } from "node:crypto";

/** A new signing secret when the partner asks the dispatcher to choose: 256 random bits, base64url. */
export function generateSecret(): string {
  return randomBytes(32).toString("base64url");
}
