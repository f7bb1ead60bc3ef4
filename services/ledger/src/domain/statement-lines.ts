/**
 * Statement lines: the entries of a partner's `balance` account, as a finance team reads them. An entry of
 * a payout, reversal or refund moves the quoted total (`amount_usd + percentage_fee + fixed_fee`, frozen
 * when the payout executed); its line is split here into the amount part and a `fee` line, which sum to
 * the entry exactly. Credits and adjustments are one line each. Pure: no I/O.
 *
 * The feed's position is (xid, entry_id, part): the inserting database transaction's id, the entry, and
 * which of its lines (0 the main line, 1 the fee line). Cursors are opaque (base64url JSON) and validated
 * strictly when read back.
 */
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import {
  DEFAULT_FEED_PAGE_SIZE,
  MAX_FEED_PAGE_SIZE,
  type StatementLineType,
} from "@payouts/platform/statement-feed";
import { invalidField } from "./ledger-failure.js";
import { decOf, scaledOf } from "./scaled-amount.js";

export interface FeedPosition {
  readonly xid: bigint;
  readonly entryId: bigint;
  readonly part: 0 | 1;
}

/** One entry of the balance account as the store reads it, with its transaction's frozen quote. */
export interface BalanceEntry {
  readonly xid: bigint;
  readonly entryId: bigint;
  readonly movementKind: string;
  readonly amount: Dec;
  readonly createdAt: Date;
  readonly txId: string | undefined;
  readonly partnerTransactionId: string | undefined;
  readonly currency: string | undefined;
  readonly localAmount: Dec | undefined;
  readonly exchangeRate: Dec | undefined;
  readonly amountUsd: Dec | undefined;
  readonly fee: Dec | undefined;
}

export interface StatementLine {
  readonly id: string;
  readonly type: StatementLineType;
  readonly position: FeedPosition;
  readonly txId: string | undefined;
  readonly partnerTransactionId: string | undefined;
  /** Local amount, currency and rate of the payout: on the payout-related amount lines only. */
  readonly localAmount: Dec | undefined;
  readonly currency: string | undefined;
  readonly exchangeRate: Dec | undefined;
  /** Signed: negative takes from the balance. */
  readonly amountUsd: Dec;
  readonly createdAt: Date;
  readonly balanceAfter: Dec;
}

const TX_LINE_TYPES: Readonly<Record<string, StatementLineType>> = {
  payout: "payout",
  reversal: "reversal",
  refund: "refund",
};

/**
 * Movements without a transaction: an operator credit, the adjustment of a restated day, and a bulk payout
 * batch's funding (`reserve`, a payout debit of the whole batch: its items are then paid from the
 * reservation and add no balance line) and its `release` (what the batch did not pay, returned like a
 * reversal).
 */
const OPERATOR_LINE_TYPES: Readonly<Record<string, StatementLineType>> = {
  credit: "credit",
  adjustment: "adjustment",
  reserve: "payout",
  release: "reversal",
};

/** The line id: stable, opaque to partners. */
export function lineId(entryId: bigint, part: 0 | 1): string {
  return `sl_${entryId}_${part}`;
}

/**
 * A balance entry with its USD amounts scaled (scaled-amount.ts) and its local amount and rate as canonical
 * decimal text: what the daily statement reads, so a day of lines costs no decimal object per line.
 */
export interface ScaledEntry {
  readonly xid: bigint;
  readonly entryId: bigint;
  readonly movementKind: string;
  readonly amount: bigint;
  readonly createdAt: Date;
  readonly txId: string | undefined;
  readonly partnerTransactionId: string | undefined;
  readonly currency: string | undefined;
  readonly localAmount: string | undefined;
  readonly exchangeRate: string | undefined;
  readonly fee: bigint | undefined;
}

/** A StatementLine with its USD amounts scaled and its local amount and rate as canonical decimal text. */
export interface ScaledLine {
  readonly id: string;
  readonly type: StatementLineType;
  readonly position: FeedPosition;
  readonly txId: string | undefined;
  readonly partnerTransactionId: string | undefined;
  readonly localAmount: string | undefined;
  readonly currency: string | undefined;
  readonly exchangeRate: string | undefined;
  readonly amountUsd: bigint;
  readonly createdAt: Date;
  readonly balanceAfter: bigint;
}

/**
 * The lines of `entries` (in feed order), with the running balance from `opening` (the balance before the
 * first entry). A payout-related entry's amount part carries the entry's sign; its fee line the rest.
 */
export function scaledStatementLines(entries: readonly ScaledEntry[], opening: bigint): ScaledLine[] {
  const lines: ScaledLine[] = [];
  let balance = opening;
  for (const e of entries) {
    const txType = TX_LINE_TYPES[e.movementKind];
    const fee = txType && e.fee ? (e.amount < 0n ? -e.fee : e.fee) : 0n;
    const main = e.amount - fee;
    balance += main;
    lines.push({
      id: lineId(e.entryId, 0),
      type: txType ?? OPERATOR_LINE_TYPES[e.movementKind] ?? "credit",
      position: { xid: e.xid, entryId: e.entryId, part: 0 },
      txId: e.txId,
      partnerTransactionId: e.partnerTransactionId,
      localAmount: txType ? e.localAmount : undefined,
      currency: txType ? e.currency : undefined,
      exchangeRate: txType ? e.exchangeRate : undefined,
      amountUsd: main,
      createdAt: e.createdAt,
      balanceAfter: balance,
    });
    if (fee !== 0n) {
      balance += fee;
      lines.push({
        id: lineId(e.entryId, 1),
        type: "fee",
        position: { xid: e.xid, entryId: e.entryId, part: 1 },
        txId: e.txId,
        partnerTransactionId: e.partnerTransactionId,
        localAmount: undefined,
        currency: undefined,
        exchangeRate: undefined,
        amountUsd: fee,
        createdAt: e.createdAt,
        balanceAfter: balance,
      });
    }
  }
  return lines;
}

const decimalText = (v: Dec | undefined) => (v === undefined ? undefined : toDecimalString(v));
const decimalOf = (v: string | undefined) => (v === undefined ? undefined : new Dec(v));

export function toScaledEntry(e: BalanceEntry): ScaledEntry {
  return {
    ...e,
    amount: scaledOf(e.amount),
    localAmount: decimalText(e.localAmount),
    exchangeRate: decimalText(e.exchangeRate),
    fee: e.fee === undefined ? undefined : scaledOf(e.fee),
  };
}

export function toScaledLine(line: StatementLine): ScaledLine {
  return {
    ...line,
    localAmount: decimalText(line.localAmount),
    exchangeRate: decimalText(line.exchangeRate),
    amountUsd: scaledOf(line.amountUsd),
    balanceAfter: scaledOf(line.balanceAfter),
  };
}

export function toDecimalLine(line: ScaledLine): StatementLine {
  return {
    ...line,
    localAmount: decimalOf(line.localAmount),
    exchangeRate: decimalOf(line.exchangeRate),
    amountUsd: decOf(line.amountUsd),
    balanceAfter: decOf(line.balanceAfter),
  };
}

/** `scaledStatementLines` of decimal entries, as decimal lines. */
export function statementLines(entries: readonly BalanceEntry[], opening: Dec): StatementLine[] {
  return scaledStatementLines(entries.map(toScaledEntry), scaledOf(opening)).map(toDecimalLine);
}

/** Whether `a` comes after `b` in feed order. */
export function isAfter(a: FeedPosition, b: FeedPosition): boolean {
  if (a.xid !== b.xid) return a.xid > b.xid;
  if (a.entryId !== b.entryId) return a.entryId > b.entryId;
  return a.part > b.part;
}

export function encodeFeedCursor(p: FeedPosition): string {
  const json = JSON.stringify([p.xid.toString(), p.entryId.toString(), p.part]);
  return Buffer.from(json, "utf8").toString("base64url");
}

const DIGITS = /^(0|[1-9][0-9]{0,19})$/;
const MAX_XID = 2n ** 64n - 1n;
const MAX_ENTRY_ID = 2n ** 63n - 1n;

export function decodeFeedCursor(cursor: string): FeedPosition {
  let parsed: unknown;
  try {
    parsed = cursor.length <= 200 ? JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) : undefined;
  } catch {
    parsed = undefined;
  }
  const valid =
    Array.isArray(parsed) &&
    parsed.length === 3 &&
    typeof parsed[0] === "string" &&
    DIGITS.test(parsed[0]) &&
    BigInt(parsed[0]) <= MAX_XID &&
    typeof parsed[1] === "string" &&
    DIGITS.test(parsed[1]) &&
    BigInt(parsed[1]) <= MAX_ENTRY_ID &&
    (parsed[2] === 0 || parsed[2] === 1);
  if (!valid) throw invalidField("after", "is not a cursor returned by this feed");
  const [xid, entryId, part] = parsed as [string, string, 0 | 1];
  return { xid: BigInt(xid), entryId: BigInt(entryId), part };
}

/** The page size asked for: 0 means the default; otherwise 1 to MAX_FEED_PAGE_SIZE. */
export function feedPageSize(limit: number): number {
  if (limit === 0) return DEFAULT_FEED_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FEED_PAGE_SIZE) {
    throw invalidField("limit", `must be an integer from 1 to ${MAX_FEED_PAGE_SIZE}`);
  }
  return limit;
}

/** Most lines of one page of a day's lines: the gateway downloads a day in pages of this size. */
export const MAX_DAY_LINES_PAGE = 5000;

/**
 * The page size of a day's lines asked for: 0 means the feed's default; otherwise 1 to MAX_DAY_LINES_PAGE,
 * larger than the public feed's limit (a page of a day is read from the running balance its cursor carries).
 */
export function dayLinesPageSize(limit: number): number {
  if (limit === 0) return DEFAULT_FEED_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DAY_LINES_PAGE) {
    throw invalidField("limit", `must be an integer from 1 to ${MAX_DAY_LINES_PAGE}`);
  }
  return limit;
}
