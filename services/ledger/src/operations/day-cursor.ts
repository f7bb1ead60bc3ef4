/**
 * The cursor of a day's statement lines: the feed position of a page's last line and the running balance
 * before that line's entry, so the next page starts from that balance instead of summing every entry of
 * the day before it.
 *
 * The balance is trusted only under an HMAC-SHA-256 of this process over the day it was computed for
 * (statement id, status, opening balance), the position and the balance. A cursor whose MAC does not
 * verify — edited, issued for another day or before the day's view changed, or by another process — is
 * read for its position alone, and the balance before it is summed again: a forged cursor can cost a sum,
 * never give a wrong balance. A plain feed cursor (position only) is read the same way.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import { invalidField } from "../domain/ledger-failure.js";
import { decodeFeedCursor, type FeedPosition } from "../domain/statement-lines.js";

/** The day a cursor's balance belongs to. */
export interface DayCursorScope {
  readonly statementId: string;
  readonly status: string;
  readonly opening: Dec;
}

export interface DayCursor {
  readonly position: FeedPosition;
  /** The running balance before the position's entry; undefined when the cursor's MAC did not verify. */
  readonly balanceBefore: Dec | undefined;
}

/** This process's MAC key: cursors outlive neither the process nor a hop to another replica (then summed). */
const PROCESS_KEY = randomBytes(32);
const MAX_CURSOR_LENGTH = 400;
const DIGITS = /^(0|[1-9][0-9]{0,19})$/;
const DECIMAL = /^-?(0|[1-9][0-9]{0,29})(\.[0-9]{1,30})?$/;
const MAC = /^[A-Za-z0-9_-]{43}$/;

function mac(
  key: Uint8Array,
  scope: DayCursorScope,
  fields: readonly [string, string, 0 | 1, string],
): Buffer {
  const signed = JSON.stringify([scope.statementId, scope.status, toDecimalString(scope.opening), ...fields]);
  return createHmac("sha256", key).update(signed, "utf8").digest();
}

export function encodeDayCursor(
  scope: DayCursorScope,
  position: FeedPosition,
  balanceBefore: Dec,
  key: Uint8Array = PROCESS_KEY,
): string {
  const fields = [
    position.xid.toString(),
    position.entryId.toString(),
    position.part,
    toDecimalString(balanceBefore),
  ] as const;
  const json = JSON.stringify([...fields, mac(key, scope, fields).toString("base64url")]);
  return Buffer.from(json, "utf8").toString("base64url");
}

/** The cursor's position (INVALID_FIELD on `after` when it is none this feed returned) and trusted balance. */
export function decodeDayCursor(
  scope: DayCursorScope,
  cursor: string,
  key: Uint8Array = PROCESS_KEY,
): DayCursor {
  let parsed: unknown;
  try {
    parsed =
      cursor.length <= MAX_CURSOR_LENGTH
        ? JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"))
        : undefined;
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 5) {
    return { position: decodeFeedCursor(cursor), balanceBefore: undefined };
  }
  const [xid, entryId, part, balance, tag] = parsed as unknown[];
  const valid =
    typeof xid === "string" &&
    DIGITS.test(xid) &&
    typeof entryId === "string" &&
    DIGITS.test(entryId) &&
    (part === 0 || part === 1) &&
    typeof balance === "string" &&
    DECIMAL.test(balance) &&
    typeof tag === "string" &&
    MAC.test(tag);
  if (!valid) throw invalidField("after", "is not a cursor returned by this feed");
  // The position alone, checked as a feed cursor is (ranges of xid and entry id).
  const position = decodeFeedCursor(Buffer.from(JSON.stringify([xid, entryId, part])).toString("base64url"));
  const expected = mac(key, scope, [xid, entryId, part, balance]);
  const trusted = timingSafeEqual(expected, Buffer.from(tag, "base64url"));
  return { position, balanceBefore: trusted ? new Dec(balance) : undefined };
}
