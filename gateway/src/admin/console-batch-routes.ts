/**
 * Operators' bulk payout routes: the ledger's BatchService called as gateway-admin (an empty partner_id
 * reads, lists or cancels any partner's batch).
 */
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import {
  batchItemStatusFromName,
  batchStatusFromName,
  renderBatch,
  renderBatchItem,
} from "../batches/render-batch.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { NO_QUERY, readQuery } from "../http/read-query.js";
import {
  adminCancelBatch,
  adminGetBatch,
  adminListBatches,
  adminListBatchItems,
} from "../operations/admin/console-batch-api.js";
import type { Batch, BatchItemList, BatchList } from "../operations/partner/batch-api.js";
import { actorOf } from "./admin-actor.js";

export function registerConsoleBatchRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { batches } = deps.clients;

  addRoute(app, adminListBatches, async (request): Promise<BatchList> => {
    const query = readQuery(adminListBatches.query, request.query);
    const res = await batches.listBatches({
      partnerId: query.partner_id ?? "",
      ...(query.status ? { status: batchStatusFromName(query.status) } : {}),
      limit: query.limit ?? 50,
      cursor: query.cursor ?? "",
    });
    return { batches: res.batches.map((b) => renderBatch(b)), next_cursor: res.nextCursor || null };
  });

  addRoute(app, adminGetBatch, async (request): Promise<Batch> => {
    readQuery(NO_QUERY, request.query);
    const res = await batches.getBatch({ partnerId: "", batchId: request.params.batch_id });
    return renderBatch(res.batch);
  });

  addRoute(app, adminListBatchItems, async (request): Promise<BatchItemList> => {
    const query = readQuery(adminListBatchItems.query, request.query);
    const res = await batches.listBatchItems({
      partnerId: "",
      batchId: request.params.batch_id,
      ...(query.status ? { status: batchItemStatusFromName(query.status) } : {}),
      limit: query.limit ?? 50,
      cursor: query.cursor ?? "",
    });
    return { items: res.items.map(renderBatchItem), next_cursor: res.nextCursor || null };
  });

  addRoute(app, adminCancelBatch, async (request): Promise<Batch> => {
    const actor = actorOf(request);
    const res = await batches.cancelBatch({
      partnerId: "",
      batchId: request.params.batch_id,
      reason: `cancelled by operator ${actor.name} (${actor.id})`,
    });
    return renderBatch(res.batch);
  });
}
