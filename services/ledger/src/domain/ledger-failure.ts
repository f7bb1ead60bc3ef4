/**
 * Every deliberate refusal of the ledger, with its stable partner-facing reason, its gRPC status, retry hint
 * and, where fixed, its wording. Handlers turn a LedgerFailure into a ConnectError from this table; anything
 * else thrown is a bug and surfaces as INTERNAL.
 */
import type { DomainError } from "@payouts/platform/domain-result";
import { defineReasons } from "@payouts/platform/reasons/define-reasons";
import type { BatchReason } from "./batch-reasons.js";

export const LEDGER = defineReasons({
  TRANSACTION_NOT_FOUND: {
    status: "NotFound",
    template: (txId: string) => ({ message: `transaction ${txId} not found`, field: "tx_id" }),
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: "Aborted",
    retryAfterSeconds: 1,
    template: () => ({
      message: "a request with this idempotency key is being processed; retry it unchanged",
    }),
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: "FailedPrecondition",
    template: () => ({ message: "this idempotency key was already used with a different request" }),
  },
  TRANSACTION_NOT_PENDING: { status: "FailedPrecondition" },
  QUOTE_REQUIRED: { status: "FailedPrecondition" },
  QUOTE_EXPIRED: { status: "FailedPrecondition" },
  INSUFFICIENT_FUNDS: { status: "FailedPrecondition" },
  BALANCE_LIMIT_EXCEEDED: { status: "FailedPrecondition" },
  TRANSACTION_NOT_REFUNDABLE: { status: "FailedPrecondition" },
  TRANSACTION_NOT_PROCESSING: { status: "FailedPrecondition" },
  INVALID_FIELD: {},
  INVALID_AMOUNT: {},
  MISSING_REQUIRED_FIELD: { template: (field: string) => ({ message: `${field} is required`, field }) },
  MISSING_IDEMPOTENCY_KEY: {},
  PAYOUT_ACCEPTED_BY_RAIL: { status: "FailedPrecondition" },
  STATEMENT_DAY_NOT_STARTED: {
    status: "FailedPrecondition",
    template: (date: string, timeZone: string) => ({
      message: `${date} has not begun yet in ${timeZone}: no statement for it`,
      field: "date",
    }),
  },
  STATEMENT_DAY_NOT_CLOSED: {
    status: "FailedPrecondition",
    template: (date: string) => ({
      message: `${date} has no closed statement yet: only a closed day can be corrected`,
      field: "date",
    }),
  },
  STATEMENT_REVISION_NOT_FOUND: {
    status: "NotFound",
    template: (date: string, revision: number) => ({
      message: `the statement of ${date} has no revision ${revision}`,
      field: "revision",
    }),
  },
  SERVICE_UNAVAILABLE: { status: "Unavailable", retryAfterSeconds: 5 },
  UNKNOWN_RAIL: {
    status: "NotFound",
    template: (rail: string) => ({ message: `this ledger submits to no rail named ${rail}`, field: "rail" }),
  },
  RECONCILIATION_RUN_NOT_FOUND: {
    status: "NotFound",
    template: (runId: string) => ({ message: `reconciliation run ${runId} not found`, field: "run_id" }),
  },
  RECONCILIATION_BREAK_NOT_FOUND: {
    status: "NotFound",
    template: (breakId: string) => ({
      message: `reconciliation break ${breakId} not found`,
      field: "break_id",
    }),
  },
  BREAK_ALREADY_RESOLVED: {
    status: "FailedPrecondition",
    template: (breakId: string) => ({ message: `reconciliation break ${breakId} is already resolved` }),
  },
});

export const LEDGER_REASONS = LEDGER.codes;

export type LedgerReason = (typeof LEDGER_REASONS)[number];

/** A reason of the ledger's own table or of its batches' (batch-reasons.ts). */
export type AnyLedgerReason = LedgerReason | BatchReason;

/**
 * The ledger's failures are thrown rather than returned (shaped like a DomainError: `code` is the reason): raised
 * inside database transactions, which a throw rolls back.
 */
export class LedgerFailure extends Error {
  /** Extra facts for the caller, e.g. {"replayed": "true", "request_id": ...} on a replayed refusal. */
  metadata: Record<string, string> = {};

  constructor(
    readonly reason: AnyLedgerReason,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = "LedgerFailure";
  }

  get code(): AnyLedgerReason {
    return this.reason;
  }
}

export const invalidField = (field: string, why: string) =>
  new LedgerFailure("INVALID_FIELD", `${field} ${why}`, field);

/** A refusal of the table as the failure to throw. */
export const ledgerFailure = (error: DomainError<LedgerReason>) =>
  new LedgerFailure(error.code, error.message, error.field);

export const missingField = (field: string) => ledgerFailure(LEDGER.of("MISSING_REQUIRED_FIELD", field));

export const notFound = (txId: string) => ledgerFailure(LEDGER.of("TRANSACTION_NOT_FOUND", txId));
