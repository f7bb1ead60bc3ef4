/**
 * payouts.ledger.v1.BatchService: proto ↔ batch operations, and LedgerFailure → ConnectError with its reason.
 * Partner RPCs carry the partner's id; an operator (the admin API) may leave it empty on the reads and on
 * CancelBatch, which then act on any partner's batch.
 */
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { isOperatorCall } from "@payouts/platform/rpc/service-auth";
import type { BatchService } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { approveBatch } from "../batches/operations/approve-batch.js";
import type { BatchDeps } from "../batches/operations/batch-deps.js";
import { createBatch, retryFailedItems } from "../batches/operations/create-batch.js";
import { cancelBatch, putBatchItems, removeBatchItems } from "../batches/operations/edit-batch.js";
import { getBatch, listBatchesPage, listBatchItemsPage } from "../batches/operations/read-batches.js";
import { missingField } from "../domain/ledger-failure.js";
import { mapFailures } from "./ledger-handlers.js";

export function createBatchHandlers(deps: BatchDeps): ServiceImpl<typeof BatchService> {
  return mapFailures({
    async createBatch(req) {
      return createBatch(deps, {
        partnerId: req.partnerId,
        items: req.items,
        requiredApprovals: req.requiredApprovals,
        nameMismatchPolicy: req.nameMismatchPolicy,
        contentSha256: req.contentSha256,
        source: req.source,
        idempotencyKey: req.idempotencyKey,
        fingerprint: req.requestFingerprint,
        requestId: req.requestId,
      });
    },

    async getBatch(req, ctx) {
      return { batch: await getBatch(deps, partnerOrOperator(req.partnerId, ctx), req.batchId) };
    },

    async listBatches(req, ctx) {
      return listBatchesPage(deps, { ...req, partnerId: partnerOrOperator(req.partnerId, ctx) });
    },

    async listBatchItems(req, ctx) {
      return listBatchItemsPage(deps, { ...req, partnerId: partnerOrOperator(req.partnerId, ctx) });
    },

    async putBatchItems(req) {
      if (!req.partnerId) throw missingField("partner_id");
      return { batch: await putBatchItems(deps, req) };
    },

    async removeBatchItems(req) {
      if (!req.partnerId) throw missingField("partner_id");
      return { batch: await removeBatchItems(deps, req) };
    },

    async approveBatch(req) {
      return { batch: await approveBatch(deps, req) };
    },

    async cancelBatch(req, ctx) {
      return {
        batch: await cancelBatch(deps, {
          partnerId: partnerOrOperator(req.partnerId, ctx),
          batchId: req.batchId,
          reason: req.reason,
        }),
      };
    },

    async retryFailedItems(req) {
      return retryFailedItems(deps, {
        partnerId: req.partnerId,
        batchId: req.batchId,
        idempotencyKey: req.idempotencyKey,
        fingerprint: req.requestFingerprint,
        requestId: req.requestId,
      });
    },
  });
}

/** The partner scope: required, unless an operator reads or cancels across partners. */
function partnerOrOperator(partnerId: string, ctx: HandlerContext): string {
  if (!partnerId && !isOperatorCall(ctx)) throw missingField("partner_id");
  return partnerId;
}
