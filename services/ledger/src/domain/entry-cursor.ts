/**
 * The opaque cursor of a balance history: the id of the last entry of a page, newest first. Opaque to
 * operators (base64url JSON), validated strictly when read back.
 */
import { invalidField } from "./ledger-failure.js";

export function encodeEntryCursor(entryId: string): string {
  return Buffer.from(JSON.stringify({ before: entryId }), "utf8").toString("base64url");
}

export function decodeEntryCursor(cursor: string): bigint {
  let parsed: unknown;
  try {
    parsed = cursor.length <= 100 ? JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) : undefined;
  } catch {
    parsed = undefined;
  }
  const before = (parsed as { before?: unknown } | undefined)?.before;
  if (typeof before !== "string" || !/^[1-9][0-9]{0,18}$/.test(before)) {
    throw invalidField("cursor", "is not a cursor returned by this list");
  }
  return BigInt(before);
}
