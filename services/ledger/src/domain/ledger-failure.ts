/**
 * Every deliberate refusal of the ledger, with its stable partner-facing reason. Handlers turn it into a
 * ConnectError; anything else thrown is a bug and surfaces as INTERNAL.
 */
export const LEDGER_REASONS = [
  "TRANSACTION_NOT_FOUND",
  "IDEMPOTENCY_KEY_IN_USE",
  "IDEMPOTENCY_KEY_REUSED",
  "TRANSACTION_NOT_PENDING",
  "QUOTE_REQUIRED",
  "QUOTE_EXPIRED",
  "INSUFFICIENT_FUNDS",
  "BALANCE_LIMIT_EXCEEDED",
  "TRANSACTION_NOT_REFUNDABLE",
  "TRANSACTION_NOT_PROCESSING",
  "INVALID_FIELD",
  "INVALID_AMOUNT",
  "MISSING_REQUIRED_FIELD",
  "MISSING_IDEMPOTENCY_KEY",
  "PAYOUT_ACCEPTED_BY_RAIL",
  "SERVICE_UNAVAILABLE",
] as const;

export type LedgerReason = (typeof LEDGER_REASONS)[number];

/**
 * The ledger's failures are thrown rather than returned (shaped like a DomainError: `code` is the reason): raised
 * inside database transactions, which a throw rolls back.
 */
export class LedgerFailure extends Error {
  /** Extra facts for the caller, e.g. {"replayed": "true", "request_id": ...} on a replayed refusal. */
  metadata: Record<string, string> = {};

  constructor(
    readonly reason: LedgerReason,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "LedgerFailure";
  }

  get code(): LedgerReason {
    return this.reason;
  }
}

export const invalidField = (field: string, why: string) =>
  new LedgerFailure("INVALID_FIELD", `${field} ${why}`, field);

export const missingField = (field: string) =>
  new LedgerFailure("MISSING_REQUIRED_FIELD", `${field} is required`, field);

export const notFound = (txId: string) =>
  new LedgerFailure("TRANSACTION_NOT_FOUND", `transaction ${txId} not found`, "tx_id");
