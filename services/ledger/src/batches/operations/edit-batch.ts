/**
 * Changes before funding: PutBatchItems, RemoveBatchItems and CancelBatch. Each is one database transaction
 * holding the batch's row lock, so it never interleaves with an approval (which takes the same lock).
 * Changing items sends the batch back to VALIDATING and starts a new approval round.
 */
import type { Queryable } from "@payouts/platform/database/database";
import type { Batch, BatchItemInput } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { missingField } from "../../domain/ledger-failure.js";
import { toBatchMessage } from "../batch-message.js";
import { BATCH, batchFailure } from "../domain/batch-failure.js";
import { checkBatchSize, checkItemInputs } from "../domain/batch-input.js";
import { isEditable } from "../domain/batch-status.js";
import {
  countItemsOf,
  findBatch,
  moveItems,
  putItems,
  removeItems,
  type StoredBatch,
  startApprovalRound,
  updateBatch,
  viewBatch,
} from "../store/batch-store.js";
import { dropWork } from "../store/work-queue.js";
import type { BatchDeps } from "./batch-deps.js";
import { factsOf, storedItem } from "./create-batch.js";
import { settleValidation } from "./settle-validation.js";

export async function putBatchItems(
  deps: BatchDeps,
  input: { partnerId: string; batchId: string; items: readonly BatchItemInput[] },
): Promise<Batch> {
  if (input.items.length === 0) throw missingField("items");
  checkItemInputs(input.items.map(factsOf));
  const batch = await editing(deps, input.partnerId, input.batchId, async (q, b, now) => {
    await putItems(q, b.batchId, input.items.map(storedItem), now);
    // Checked on the result, since a replaced item adds nothing (the statement rolls back when too many).
    checkBatchSize(await countItemsOf(q, b.batchId));
    await changed(q, b, now);
  });
  deps.workQueued();
  return batch;
}

export async function removeBatchItems(
  deps: BatchDeps,
  input: { partnerId: string; batchId: string; itemRefs: readonly string[] },
): Promise<Batch> {
  if (input.itemRefs.length === 0) throw missingField("item_refs");
  return editing(deps, input.partnerId, input.batchId, async (q, b, now) => {
    await removeItems(q, b.batchId, input.itemRefs);
    await changed(q, b, now);
    // Removing the last items still being checked may finish the validation.
    await settleValidation(q, b.batchId, now, deps.config.pendingTtlMs);
  });
}

/** Before funding only; the items' PENDING transactions are left to expire. An operator passes no partner. */
export async function cancelBatch(
  deps: BatchDeps,
  input: { partnerId: string; batchId: string; reason: string },
): Promise<Batch> {
  return editing(deps, input.partnerId, input.batchId, async (q, b, now) => {
    await updateBatch(q, b.batchId, "CANCELLED", now, { cancelReason: input.reason.slice(0, 500) });
    await moveItems(q, b.batchId, ["VALIDATING", "PENDING"], "CANCELLED", now);
    await dropWork(q, b.batchId);
  });
}

async function editing(
  deps: BatchDeps,
  partnerId: string,
  batchId: string,
  edit: (q: Queryable, batch: StoredBatch, now: Date) => Promise<void>,
): Promise<Batch> {
  if (!batchId) throw missingField("batch_id");
  const now = deps.now();
  return deps.db.transaction(async (q) => {
    const batch = await findBatch(q, batchId, partnerId, true);
    if (!batch) throw batchFailure(BATCH.of("BATCH_NOT_FOUND", batchId));
    if (!isEditable(batch.status)) throw batchFailure(BATCH.of("BATCH_NOT_EDITABLE", batchId, batch.status));
    await edit(q, batch, now);
    const after = await findBatch(q, batchId, partnerId);
    if (!after) throw new Error(`batch ${batchId} vanished in its own transaction`);
    return toBatchMessage(await viewBatch(q, after));
  });
}

/** Items changed: validation starts again for them and earlier approvals no longer count. */
async function changed(q: Queryable, batch: StoredBatch, now: Date): Promise<void> {
  if (batch.status !== "VALIDATING") {
    await updateBatch(q, batch.batchId, "VALIDATING", now, { validatedAt: null, expiresAt: null });
  }
  if (batch.status === "VALIDATED" || batch.status === "AWAITING_APPROVAL")
    await startApprovalRound(q, batch.batchId);
}
