/**
 * Public entry point: every reason the ledger answers with (its own table and its batches'), and the ConnectError
 * its handlers throw for a LedgerFailure, made from those tables (domain/ledger-failure.ts,
 * domain/batch-reasons.ts).
 */
import { rejectionsFor } from "@payouts/platform/reasons/reason-rejections";
import { BATCH, type BatchReason } from "./domain/batch-reasons.js";
import { LEDGER, type LedgerFailure, type LedgerReason } from "./domain/ledger-failure.js";

export { BATCH_REASONS, type BatchReason } from "./domain/batch-reasons.js";
export { LEDGER_REASONS, type LedgerReason } from "./domain/ledger-failure.js";

const ledger = rejectionsFor(LEDGER);
const batches = rejectionsFor(BATCH);

/** A LedgerFailure as its documented ConnectError: the table's gRPC status and retry hint, its metadata. */
export function failureRejection(failure: LedgerFailure) {
  const field = failure.field || undefined;
  const options = { metadata: failure.metadata };
  return isBatchReason(failure.reason)
    ? batches.rejection(BATCH.error(failure.reason, failure.message, field), options)
    : ledger.rejection(LEDGER.error(failure.reason, failure.message, field), options);
}

function isBatchReason(reason: LedgerReason | BatchReason): reason is BatchReason {
  return (BATCH.codes as readonly string[]).includes(reason);
}
