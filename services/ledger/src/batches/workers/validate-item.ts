/**
 * Validation of one queued item, by the rules of lookupPaymentCode and getQuotation: the amount's shape, the
 * destination (LookupService/ResolveDestination: check digits, name enquiry), then the corridor's limits and
 * a binding quote through createTransaction's own checks and pricing. A valid item gets its PENDING
 * transaction (or, when the name policy excludes it, none) and a refused one the refusal's code and field;
 * the item's row, its transaction and the removal of its work row are one database transaction. When a
 * dependency does not answer, nothing is written but the work row's next attempt (backoff).
 */

import { LedgerFailure, missingField } from "../../domain/ledger-failure.js";
import { payoutTotal } from "../../domain/posting-rules.js";
import { storedDecimal } from "../../domain/quote-terms.js";
import {
  addPreparedTransaction,
  type PreparedTransaction,
  prepareTransaction,
} from "../../operations/create-transaction.js";
import { destinationToJson } from "../../proto/transaction-message.js";
import { Statement } from "../../store/statement.js";
import { itemInputOf } from "../batch-message.js";
import { matchName, type NameMatch, validatedItemStatus, verifiedNameOf } from "../domain/name-match.js";
import { classifyValidationError } from "../domain/validation-outcome.js";
import type { BatchDeps } from "../operations/batch-deps.js";
import { settleValidation } from "../operations/settle-validation.js";
import { findBatch, findItem } from "../store/batch-store.js";
import { finishWork, retryWork, type WorkRow } from "../store/work-queue.js";

const MAX_BACKOFF_MS = 5 * 60_000;

type Outcome =
  | {
      readonly kind: "valid";
      readonly prepared: PreparedTransaction | undefined;
      readonly verifiedName: string;
      readonly nameMatch: NameMatch;
      readonly status: "PENDING" | "EXCLUDED";
    }
  | { readonly kind: "invalid"; readonly code: string; readonly field: string; readonly message: string };

export async function validateItem(deps: BatchDeps, work: WorkRow, timeoutMs: number): Promise<void> {
  const [item, batch] = await Promise.all([
    findItem(deps.db, work.batchId, work.itemRef),
    findBatch(deps.db, work.batchId, ""),
  ]);
  if (
    !item ||
    !batch ||
    item.version !== work.version ||
    item.status !== "VALIDATING" ||
    batch.status !== "VALIDATING"
  ) {
    // Replaced, removed, or its batch cancelled since it was queued: nothing to do for this version.
    await finishWork(deps.db, work);
    return;
  }
  let outcome: Outcome;
  try {
    outcome = await check(deps, batch, item.input, timeoutMs);
  } catch (error) {
    const failure = classifyValidationError(error);
    if (failure.kind === "retry") {
      const delay = Math.min(deps.config.railRetryMs * 2 ** Math.min(work.attempts, 16), MAX_BACKOFF_MS);
      deps.logger.warn(
        { batch_id: work.batchId, item_ref: work.itemRef, err: failure.why, retry_in_ms: delay },
        "batch item validation could not reach a dependency; will retry",
      );
      await retryWork(deps.db, work, deps.now(), delay, failure.why);
      return;
    }
    outcome = failure;
  }
  const now = deps.now();
  const wroteEvent = await deps.db.transaction(async (q) => {
    // The batch's row lock first (the order of every batch change), then the item, whose version must
    // still be the one validated.
    const locked = await findBatch(q, work.batchId, "", true);
    const current = await findItem(q, work.batchId, work.itemRef);
    if (
      locked?.status !== "VALIDATING" ||
      current?.version !== work.version ||
      current.status !== "VALIDATING"
    ) {
      await finishWork(q, work);
      return false;
    }
    const st = new Statement();
    let txId: string | null = null;
    let total: string | null = null;
    if (outcome.kind === "valid" && outcome.prepared) {
      const created = addPreparedTransaction(st, outcome.prepared);
      txId = created.tx.txId;
      total = created.tx.quote ? payoutTotal(created.tx.quote).toFixed() : null;
    }
    const v = (value: unknown) => st.p(value);
    const status = outcome.kind === "valid" ? outcome.status : "INVALID";
    await st.run(
      q,
      `UPDATE ledger.batch_items
          SET status = ${v(status)}, tx_id = ${v(txId)}, total_usd = ${v(total)}::numeric,
              error_code = ${v(outcome.kind === "invalid" ? outcome.code : "")},
              error_field = ${v(outcome.kind === "invalid" ? outcome.field : "")},
              error_message = ${v(outcome.kind === "invalid" ? outcome.message.slice(0, 500) : "")},
              verified_name = ${v(outcome.kind === "valid" ? outcome.verifiedName : "")},
              name_match = ${v(outcome.kind === "valid" ? outcome.nameMatch : "UNSPECIFIED")},
              updated_at = ${v(now)}
        WHERE batch_id = ${v(work.batchId)} AND item_ref = ${v(work.itemRef)} AND version = ${v(work.version)}`,
    );
    await finishWork(q, work);
    await settleValidation(q, work.batchId, now, deps.config.pendingTtlMs);
    return txId !== null;
  });
  if (wroteEvent) deps.committed();
}

async function check(
  deps: BatchDeps,
  batch: { batchId: string; partnerId: string; nameMismatchPolicy: "EXCLUDE" | "INCLUDE" },
  stored: Record<string, unknown>,
  timeoutMs: number,
): Promise<Outcome> {
  const input = itemInputOf(stored);
  // lookupPaymentCode checks the amount's shape before the destination.
  storedDecimal(input.amount.trim(), "amount", "positive");
  if (!deps.lookup) throw new LedgerFailure("SERVICE_UNAVAILABLE", "no lookup service is configured");
  if (!input.destination) throw missingField("destination");
  const resolved = await deps.lookup.resolveDestination(
    { ...input.destination, partnerId: batch.partnerId },
    { timeoutMs },
  );
  const destination = resolved.destination;
  if (!destination) throw new Error("lookup answered without a destination");
  const destinationJson = destinationToJson(destination);
  const prepared = await prepareTransaction(
    deps,
    deps.pricer,
    {
      partnerId: batch.partnerId,
      customerId: (input.destination?.customerId ?? "").trim(),
      countryCode: destination.countryCode,
      currency: destination.currency,
      destination: destinationJson,
      amount: input.amount.trim(),
      partnerTransactionId: input.partnerTransactionId,
      partnerAppId: input.partnerAppId,
      walletIdentifier: input.walletIdentifier,
      batchItem: { batchId: batch.batchId, itemRef: input.itemRef },
    },
    { timeoutMs },
  );
  const verifiedName = verifiedNameOf(destinationJson.recipient);
  const nameMatch = matchName(input.expectedName, verifiedName);
  const status = validatedItemStatus(nameMatch, batch.nameMismatchPolicy);
  // An excluded item is never paid: it gets no transaction.
  return {
    kind: "valid",
    prepared: status === "PENDING" ? prepared : undefined,
    verifiedName,
    nameMatch,
    status,
  };
}
