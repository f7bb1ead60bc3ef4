/**
 * ApproveBatch. One approval per credential and round; when the approvals the batch requires are in, the
 * batch is funded: Σ total_usd of its PENDING items moves from the partner's balance to the reservation in
 * ONE `reserve` movement, in ONE database transaction with the approval, the batch's PROCESSING status and
 * the fan-out's work rows. If the balance is short, INSUFFICIENT_FUNDS (metadata shortfall_usd, exact) and
 * nothing is written.
 *
 * Locks, in order: the partner's balance row, the batch row, the partner's reservation row.
 */
import { newId } from "@payouts/platform/ids";
import { toDecimalString } from "@payouts/platform/money/decimal";
import type { Batch } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { LedgerFailure, missingField } from "../../domain/ledger-failure.js";
import { reserveMovement } from "../../domain/posting-rules.js";
import { ensureAccounts, lockBalance, postMovement } from "../../store/ledger-store.js";
import { toBatchMessage } from "../batch-message.js";
import { BATCH, batchFailure } from "../domain/batch-failure.js";
import { afterApproval, isApprovable } from "../domain/batch-status.js";
import { shortfall, sumTotals } from "../domain/batch-totals.js";
import {
  addApproval,
  approvalCount,
  findBatch,
  itemsIn,
  updateBatch,
  viewBatch,
} from "../store/batch-store.js";
import { enqueueExecution } from "../store/work-queue.js";
import type { BatchDeps } from "./batch-deps.js";
import { lockReservation } from "./complete-batch.js";

export interface ApproveInput {
  readonly partnerId: string;
  readonly batchId: string;
  readonly approverId: string;
}

/**
 * Refusals in this order: MISSING_REQUIRED_FIELD, BATCH_NOT_FOUND, BATCH_EXPIRED, BATCH_NOT_VALIDATED,
 * BATCH_ALREADY_APPROVED_BY, then (for the funding approval) INSUFFICIENT_FUNDS.
 */
export async function approveBatch(deps: BatchDeps, input: ApproveInput): Promise<Batch> {
  if (!input.partnerId) throw missingField("partner_id");
  if (!input.batchId) throw missingField("batch_id");
  if (!input.approverId) throw missingField("approver_id");
  const now = deps.now();
  const { batch, funded } = await deps.db.transaction(async (q) => {
    await ensureAccounts(q, input.partnerId);
    const balance = await lockBalance(q, input.partnerId);
    const found = await findBatch(q, input.batchId, input.partnerId, true);
    if (!found) throw batchFailure(BATCH.of("BATCH_NOT_FOUND", input.batchId));
    const expired =
      found.status === "EXPIRED" ||
      (isApprovable(found.status) &&
        found.expiresAt !== undefined &&
        found.expiresAt.getTime() <= now.getTime());
    if (expired) throw batchFailure(BATCH.of("BATCH_EXPIRED", found.batchId));
    if (!isApprovable(found.status))
      throw batchFailure(BATCH.of("BATCH_NOT_VALIDATED", found.batchId, found.status));
    if (!(await addApproval(q, found, input.approverId, now))) {
      throw batchFailure(BATCH.of("BATCH_ALREADY_APPROVED_BY", input.approverId));
    }
    const next = afterApproval(await approvalCount(q, found), found.requiredApprovals);
    if (next === "AWAITING_APPROVAL") {
      await updateBatch(q, found.batchId, "AWAITING_APPROVAL", now);
      return { batch: await readBack(q, found.batchId, input.partnerId), funded: false };
    }
    const payable = await itemsIn(q, found.batchId, ["PENDING"]);
    if (payable.length === 0) {
      throw batchFailure(
        BATCH.of("BATCH_NOT_VALIDATED", found.batchId, `${found.status} with no payable item`),
      );
    }
    const total = sumTotals(payable.map((i) => i.totalUsd).filter((t) => t !== undefined));
    const missing = shortfall(balance, total);
    if (missing.gt(0)) {
      const failure = new LedgerFailure(
        "INSUFFICIENT_FUNDS",
        `the balance is ${toDecimalString(missing)} USD short of the batch's ${toDecimalString(total)} USD`,
      );
      failure.metadata = { shortfall_usd: toDecimalString(missing) };
      throw failure;
    }
    await lockReservation(q, input.partnerId);
    await postMovement(q, {
      movementId: newId("mov"),
      partnerId: input.partnerId,
      txId: undefined,
      batchId: found.batchId,
      reference: `batch ${found.batchId} approved`,
      movement: reserveMovement(total),
      at: now,
    });
    await updateBatch(q, found.batchId, "PROCESSING", now, { fundedAt: now, reservedUsd: total });
    await enqueueExecution(
      q,
      found.batchId,
      payable.map((i) => i.itemRef),
      now,
    );
    return { batch: await readBack(q, found.batchId, input.partnerId), funded: true };
  });
  if (funded) deps.workQueued();
  return batch;
}

async function readBack(
  q: Parameters<typeof viewBatch>[0],
  batchId: string,
  partnerId: string,
): Promise<Batch> {
  const batch = await findBatch(q, batchId, partnerId);
  if (!batch) throw new Error(`batch ${batchId} vanished in its own transaction`);
  return toBatchMessage(await viewBatch(q, batch));
}
