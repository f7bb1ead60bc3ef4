/**
 * Public entry point: every reason the ledger answers with (its typed failure union), and the ConnectError
 * its handlers throw for a LedgerFailure, made from the one reason table (domain/ledger-failure.ts).
 */
import { rejectionsFor } from "@payouts/platform/reasons/reason-rejections";
import { LEDGER, type LedgerFailure } from "./domain/ledger-failure.js";

export { LEDGER_REASONS, type LedgerReason } from "./domain/ledger-failure.js";

const { rejection } = rejectionsFor(LEDGER);

/** A LedgerFailure as its documented ConnectError: the table's gRPC status and retry hint, its metadata. */
export function failureRejection(failure: LedgerFailure) {
  return rejection(LEDGER.error(failure.reason, failure.message, failure.field || undefined), {
    metadata: failure.metadata,
  });
}
