/**
 * The opaque cursors of the newest-first lists (listTransactions, listBatches): the position (created_at, id)
 * of the last item of a page. Opaque to partners (base64url JSON), validated strictly when read back.
 */
import { invalidField } from "./ledger-failure.js";

export interface ListPosition {
  readonly createdAt: Date;
  readonly txId: string;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

export function encodeCursor(position: ListPosition): string {
  return encodePosition(position.createdAt, position.txId);
}

/** The position a cursor names; INVALID_FIELD on `field` when it is not one `operation` returned. */
export function decodeCursor(cursor: string, field = "cursor", operation = "listTransactions"): ListPosition {
  const { createdAt, id } = decodePosition(cursor, /^tx_[0-9a-z]{1,64}$/, field, operation);
  return { createdAt, txId: id };
}

/** The cursor of a page whose last item was created at `createdAt` and is named `id`. */
export function encodePosition(createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([createdAt.getTime(), id]), "utf8").toString("base64url");
}

/** The position a cursor names, its id matching `idPattern`; INVALID_FIELD on `field` otherwise. */
export function decodePosition(
  cursor: string,
  idPattern: RegExp,
  field: string,
  operation: string,
): { createdAt: Date; id: string } {
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
    !idPattern.test(parsed[1])
  ) {
    throw invalidField(field, `is not a cursor returned by ${operation}`);
  }
  return { createdAt: new Date(parsed[0] as number), id: parsed[1] };
}

/**
 * A page out of `rows` read with one more than `limit`: its first `limit` rows and the cursor of the next
 * page, made from the page's last row ("" when there is no next page).
 */
export function splitPage<T>(
  rows: readonly T[],
  limit: number,
  cursorOf: (last: T) => string,
): { page: T[]; nextCursor: string } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : "" };
}

/** The page size asked for: 0 means the default; otherwise 1 to MAX_PAGE_SIZE. */
export function pageSize(limit: number): number {
  if (limit === 0) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalidField("limit", `must be an integer from 1 to ${MAX_PAGE_SIZE}`);
  }
  return limit;
}
