/**
 * GetBatch, ListBatches (newest first; an operator, with no partner, reads every partner's) and
 * ListBatchItems (in row order). Reads only.
 */
import type {
  Batch,
  BatchItem,
  BatchItemStatus,
  BatchStatus,
} from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { invalidField, missingField } from "../../domain/ledger-failure.js";
import { decodePosition, encodePosition, pageSize, splitPage } from "../../domain/list-cursor.js";
import type { LedgerDeps } from "../../operations/ledger-deps.js";
import { batchStatusName, itemStatusName, toBatchMessage, toItemMessage } from "../batch-message.js";
import { BATCH, batchFailure } from "../domain/batch-failure.js";
import { findBatch, listBatches, listItems, transactionsOf, viewBatch } from "../store/batch-store.js";

export async function getBatch(deps: LedgerDeps, partnerId: string, batchId: string): Promise<Batch> {
  if (!batchId) throw missingField("batch_id");
  const batch = await findBatch(deps.db, batchId, partnerId);
  if (!batch) throw batchFailure(BATCH.of("BATCH_NOT_FOUND", batchId));
  return toBatchMessage(await viewBatch(deps.db, batch));
}

/** The batch ids a listBatches cursor may name. */
const BATCH_ID = /^bat_[0-9a-z]{1,64}$/;

export async function listBatchesPage(
  deps: LedgerDeps,
  input: { partnerId: string; status: BatchStatus; limit: number; cursor: string },
): Promise<{ batches: Batch[]; nextCursor: string }> {
  const limit = pageSize(input.limit);
  const rows = await listBatches(deps.db, {
    partnerId: input.partnerId,
    status: batchStatusName(input.status),
    after: input.cursor === "" ? undefined : decodePosition(input.cursor, BATCH_ID, "cursor", "listBatches"),
    limit: limit + 1,
  });
  const { page, nextCursor } = splitPage(rows, limit, (last) => encodePosition(last.createdAt, last.batchId));
  const batches: Batch[] = [];
  for (const b of page) batches.push(toBatchMessage(await viewBatch(deps.db, b)));
  return { batches, nextCursor };
}

export async function listBatchItemsPage(
  deps: LedgerDeps,
  input: { partnerId: string; batchId: string; status: BatchItemStatus; limit: number; cursor: string },
): Promise<{ items: BatchItem[]; nextCursor: string }> {
  if (!input.batchId) throw missingField("batch_id");
  const batch = await findBatch(deps.db, input.batchId, input.partnerId);
  if (!batch) throw batchFailure(BATCH.of("BATCH_NOT_FOUND", input.batchId));
  const limit = Math.min(Math.max(input.limit || 100, 1), 1000);
  const afterRow = input.cursor === "" ? 0 : Number(input.cursor);
  if (!Number.isSafeInteger(afterRow) || afterRow < 0)
    throw invalidField("cursor", "is not a cursor of this list");
  const rows = await listItems(deps.db, batch.batchId, itemStatusName(input.status), afterRow, limit + 1);
  const { page, nextCursor } = splitPage(rows, limit, (last) => String(last.rowNumber));
  const txs = await transactionsOf(
    deps.db,
    page.flatMap((i) => (i.txId ? [i.txId] : [])),
  );
  const items: BatchItem[] = page.map((item) =>
    toItemMessage(item, item.txId ? txs.get(item.txId) : undefined),
  );
  return { items, nextCursor };
}
