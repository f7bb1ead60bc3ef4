/**
 * The rules of executePayout, in the documented precedence order (proto LedgerService, README):
 * TRANSACTION_NOT_FOUND, IDEMPOTENCY_KEY_IN_USE, IDEMPOTENCY_KEY_REUSED, TRANSACTION_NOT_PENDING,
 * QUOTE_REQUIRED, QUOTE_EXPIRED, INSUFFICIENT_FUNDS. The first two depend on storage and locks and are
 * decided by the caller; everything from the key verdict on is decided here.
 */
import type { Dec } from "@payouts/platform/money/decimal";
import { invalidField, LedgerFailure } from "./ledger-failure.js";
import { type PayoutAmounts, payoutTotal } from "./posting-rules.js";
import type { TxStatus } from "./transaction-status.js";

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

export const keyInUse = () =>
  new LedgerFailure(
    "IDEMPOTENCY_KEY_IN_USE",
    "a request with this idempotency key is being processed; retry it unchanged",
  );

export const keyReused = () =>
  new LedgerFailure(
    "IDEMPOTENCY_KEY_REUSED",
    "this idempotency key was already used with a different request",
  );

export interface ExecutableTx {
  readonly status: TxStatus;
  /** When a PENDING transaction stops being executable (the expiry sweeper catches up later). */
  readonly pendingExpiresAt: Date;
  readonly quote: (PayoutAmounts & { readonly expiresAt: Date }) | undefined;
}

/**
 * TRANSACTION_NOT_PENDING unless the transaction is PENDING and within its pending TTL: the one rule for
 * quoting (getQuotation) and executing (executePayout).
 */
export function pendingRefusal(
  tx: Pick<ExecutableTx, "status" | "pendingExpiresAt">,
  now: Date,
): LedgerFailure | undefined {
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
  tx: Pick<ExecutableTx, "status" | "pendingExpiresAt"> & { readonly currency: string },
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

/**
 * Why the payout cannot be executed now, or undefined when it can: checked in precedence order, so the
 * answer is the same whichever of several problems a retry hits first.
 */
export function executionRefusal(tx: ExecutableTx, balance: Dec, now: Date): LedgerFailure | undefined {
  const notPending = pendingRefusal(tx, now);
  if (notPending) return notPending;
  if (!tx.quote) {
    return new LedgerFailure("QUOTE_REQUIRED", "call getQuotation for this transaction first");
  }
  if (tx.quote.expiresAt.getTime() <= now.getTime()) {
    return new LedgerFailure("QUOTE_EXPIRED", "the quotation expired; call getQuotation again");
  }
  const total = payoutTotal(tx.quote);
  if (balance.lt(total)) {
    return new LedgerFailure(
      "INSUFFICIENT_FUNDS",
      `balance is lower than the payout total of ${total.toFixed()} USD`,
    );
  }
  return undefined;
}
