/**
 * The opaque cursor of listTransactions: the position (created_at, tx_id) of the last item of a page,
 * newest first. Opaque to partners (base64url JSON), validated strictly when read back.
 */
import { invalidField } from "./ledger-failure.js";

export interface ListPosition {
  readonly createdAt: Date;
  readonly txId: string;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export function encodeCursor(position: ListPosition): string {
  const json = JSON.stringify([position.createdAt.getTime(), position.txId]);
  return Buffer.from(json, "utf8").toString("base64url");
}

/** The position a cursor names; INVALID_FIELD on `field` when it is not one `operation` returned. */
export function decodeCursor(cursor: string, field = "cursor", operation = "listTransactions"): ListPosition {
  let parsed: unknown;
  try {
    parsed = cursor.length <= 200 ? JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) : undefined;
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    !Number.isSafeInteger(parsed[0]) ||
    typeof parsed[1] !== "string" ||
    !/^tx_[0-9a-z]{1,64}$/.test(parsed[1])
  ) {
    throw invalidField(field, `is not a cursor returned by ${operation}`);
  }
  return { createdAt: new Date(parsed[0] as number), txId: parsed[1] };
}

/** The page size asked for: 0 means the default; otherwise 1 to MAX_PAGE_SIZE. */
export function pageSize(limit: number): number {
  if (limit === 0) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalidField("limit", `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return limit;
}
