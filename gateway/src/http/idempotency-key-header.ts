/**
 * The idempotency key of a money-moving request (`POST /executePayout`, the admin balance credit):
 * `X-Idempotency-Key` (or the IETF draft's `Idempotency-Key`, optionally as a quoted structured-field
 * string), 1 to 255 printable ASCII characters, required. The ledger keeps the records and decides replays.
 */
import type { FastifyRequest } from "fastify";
import { ApiError, invalidField } from "./api-error.js";

const KEY_HEADERS = ["x-idempotency-key", "idempotency-key"] as const;

export function readIdempotencyKey(request: FastifyRequest, what: string): string {
  const name = KEY_HEADERS.find((h) => request.headers[h] !== undefined);
  const raw = name === undefined ? undefined : request.headers[name];
  if (raw === undefined || raw === "") {
    throw new ApiError(
      400,
      "MISSING_IDEMPOTENCY_KEY",
      `the X-Idempotency-Key header is required: send a fresh unique value (a UUID) per ${what}`,
      "X-Idempotency-Key",
    );
  }
  const text = Array.isArray(raw) ? undefined : raw.replace(/^"(.*)"$/, "$1");
  if (text === undefined || !/^[\x20-\x7e]{1,255}$/.test(text)) {
    throw invalidField("X-Idempotency-Key", "must be one value of 1 to 255 printable ASCII characters");
  }
  return text;
}
