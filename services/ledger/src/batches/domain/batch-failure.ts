/** A bulk payout refusal of the batch reason table as the LedgerFailure to throw. */
import type { DomainError } from "@payouts/platform/domain-result";
import type { BatchReason } from "../../domain/batch-reasons.js";
import { LedgerFailure } from "../../domain/ledger-failure.js";

export { BATCH } from "../../domain/batch-reasons.js";

export const batchFailure = (error: DomainError<BatchReason>) =>
  new LedgerFailure(error.code, error.message, error.field);
