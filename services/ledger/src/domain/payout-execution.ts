/**
 * The rules of executePayout, in the precedence order PAYOUT_REFUSAL_ORDER lists (the one definition: the
 * proto's LedgerService comment, the README's table and the API's description follow it, and tests compare
 * them with it). The first three depend on storage and locks and are decided by the caller; everything
 * from the key verdict on is decided here.
 */
import type { Dec } from "@payouts/platform/money/decimal";
import { invalidField, LEDGER, LedgerFailure, type LedgerReason, ledgerFailure } from "./ledger-failure.js";
import { type PayoutAmounts, payoutTotal } from "./posting-rules.js";
import type { TxStatus } from "./transaction-status.js";

/**
 * executePayout's refusals in precedence order: the first that applies is the answer, so a retry that hits
 * several problems always hears the same one. `stored`: the refusal is kept under the idempotency key and
 * replayed like a success (those executionRefusal decides); the others are answered and forgotten.
 */
export const PAYOUT_REFUSAL_ORDER = [
  { reason: "TRANSACTION_NOT_FOUND", stored: false },
  { reason: "IDEMPOTENCY_KEY_IN_USE", stored: false },
  { reason: "IDEMPOTENCY_KEY_REUSED", stored: false },
  { reason: "TRANSACTION_NOT_PENDING", stored: true },
  { reason: "QUOTE_REQUIRED", stored: true },
  { reason: "QUOTE_EXPIRED", stored: true },
  { reason: "INSUFFICIENT_FUNDS", stored: true },
] as const satisfies readonly { readonly reason: LedgerReason; readonly stored: boolean }[];

/** The refusals stored under the key: the ones executionRefusal answers. */
export type StoredPayoutRefusal = Extract<(typeof PAYOUT_REFUSAL_ORDER)[number], { stored: true }>["reason"];

export const STORED_PAYOUT_REFUSALS: readonly StoredPayoutRefusal[] = PAYOUT_REFUSAL_ORDER.filter(
  (r): r is Extract<(typeof PAYOUT_REFUSAL_ORDER)[number], { stored: true }> => r.stored,
).map((r) => r.reason);

/** Idempotency keys: 1 to 255 printable ASCII characters (space to tilde). */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;
const FINGERPRINT = /^[0-9a-f]{64}$/;

export function checkIdempotencyKey(key: string, fingerprint: string): void {
  if (key === "") {
    throw new LedgerFailure("MISSING_IDEMPOTENCY_KEY", "an idempotency key is required", "idempotency_key");
  }
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new LedgerFailure(
      "INVALID_FIELD",
      "idempotency_key must be 1 to 255 printable ASCII characters",
      "idempotency_key",
    );
  }
  if (!FINGERPRINT.test(fingerprint)) {
    throw new LedgerFailure(
      "INVALID_FIELD",
      "request_fingerprint must be a hex SHA-256",
      "request_fingerprint",
    );
  }
}

export type KeyVerdict = "fresh" | "replay" | "reused";

/** What a key already stored for this partner and route means for a request with `fingerprint`. */
export function keyVerdict(
  stored: { readonly fingerprint: string } | undefined,
  fingerprint: string,
): KeyVerdict {
  if (stored === undefined) return "fresh";
  return stored.fingerprint === fingerprint ? "replay" : "reused";
}

export const keyInUse = () => ledgerFailure(LEDGER.of("IDEMPOTENCY_KEY_IN_USE"));

export const keyReused = () => ledgerFailure(LEDGER.of("IDEMPOTENCY_KEY_REUSED"));

export interface ExecutableTx {
  readonly status: TxStatus;
  /** When a PENDING transaction stops being executable (the expiry sweeper catches up later). */
  readonly pendingExpiresAt: Date;
  readonly quote: (PayoutAmounts & { readonly expiresAt: Date }) | undefined;
  /** Set when the transaction pays a batch item: only its batch's approval pays it. */
  readonly batchItem?: { readonly batchId: string } | undefined;
}

/**
 * TRANSACTION_NOT_PENDING unless the transaction is PENDING and within its pending TTL: the one rule for
 * quoting (getQuotation) and executing (executePayout).
 */
export function pendingRefusal(
  tx: Pick<ExecutableTx, "status" | "pendingExpiresAt" | "batchItem">,
  now: Date,
): LedgerFailure | undefined {
  if (tx.batchItem) {
    return new LedgerFailure(
      "TRANSACTION_NOT_PENDING",
      `transaction pays an item of batch ${tx.batchItem.batchId}: it is priced and paid with its batch`,
    );
  }
  if (tx.status === "PENDING" && tx.pendingExpiresAt.getTime() > now.getTime()) return undefined;
  return new LedgerFailure(
    "TRANSACTION_NOT_PENDING",
    `transaction is ${tx.status === "PENDING" ? "expired" : tx.status}, not PENDING`,
  );
}

/**
 * Why a quote cannot be priced for, or attached to, the transaction now — getQuotation's ledger rules, in
 * order: TRANSACTION_NOT_PENDING, then INVALID_FIELD when the caller named a currency (any case) other than
 * the transaction's.
 */
export function quotingRefusal(
  tx: Pick<ExecutableTx, "status" | "pendingExpiresAt" | "batchItem"> & { readonly currency: string },
  now: Date,
  currency = "",
): LedgerFailure | undefined {
  const notPending = pendingRefusal(tx, now);
  if (notPending) return notPending;
  if (currency !== "" && currency.toUpperCase() !== tx.currency) {
    return invalidField("currency", `must be the transaction's currency ${tx.currency}`);
  }
  return undefined;
}

type ExecutionCheck = (tx: ExecutableTx, balance: Dec, now: Date) => LedgerFailure | undefined;

/** The check behind each stored refusal; executionRefusal runs them in PAYOUT_REFUSAL_ORDER. */
const EXECUTION_CHECKS: { readonly [R in StoredPayoutRefusal]: ExecutionCheck } = {
  TRANSACTION_NOT_PENDING: (tx, _balance, now) => pendingRefusal(tx, now),
  QUOTE_REQUIRED: (tx) =>
    tx.quote
      ? undefined
      : new LedgerFailure("QUOTE_REQUIRED", "call getQuotation for this transaction first"),
  QUOTE_EXPIRED: (tx, _balance, now) =>
    tx.quote && tx.quote.expiresAt.getTime() <= now.getTime()
      ? new LedgerFailure("QUOTE_EXPIRED", "the quotation expired; call getQuotation again")
      : undefined,
  INSUFFICIENT_FUNDS: (tx, balance) => {
    if (!tx.quote) return undefined;
    const total = payoutTotal(tx.quote);
    return balance.lt(total)
      ? new LedgerFailure(
          "INSUFFICIENT_FUNDS",
          `balance is lower than the payout total of ${total.toFixed()} USD`,
        )
      : undefined;
  },
};

/**
 * Why the payout cannot be executed now, or undefined when it can: checked in precedence order, so the
 * answer is the same whichever of several problems a retry hits first.
 */
export function executionRefusal(tx: ExecutableTx, balance: Dec, now: Date): LedgerFailure | undefined {
  for (const reason of STORED_PAYOUT_REFUSALS) {
    const refusal = EXECUTION_CHECKS[reason](tx, balance, now);
    if (refusal) return refusal;
  }
  return undefined;
}
