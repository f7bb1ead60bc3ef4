/**
 * Bulk payouts: `POST /batches` (JSON), `POST /batches/upload` (CSV or NDJSON, read as it arrives), the
 * batch and its per-item report, adding and removing items, approval, cancellation, retrying the failed
 * items and the report as CSV. The ledger's BatchService holds every rule; this file reads the input,
 * sends it in requests of at most 1,000 items and renders the answers.
 */
import type { Readable } from "node:stream";
import { ConnectError } from "@connectrpc/connect";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import type { Batch as BatchMessage } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { addRoute } from "../api/operation.js";
import { partnerOf } from "../auth/partner-auth.js";
import {
  type BatchItemInit,
  batchItemInput,
  ItemRefSet,
  readBatchItem,
} from "../batches/batch-item-input.js";
import {
  batchItemStatusFromName,
  batchStatusFromName,
  policyFromName,
  renderBatch,
  renderBatchItem,
} from "../batches/render-batch.js";
import { resultsCsv } from "../batches/results-csv.js";
import { type UploadFormat, uploadRows } from "../batches/upload-rows.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError, invalidField } from "../http/api-error.js";
import { httpStatusFor, isReason } from "../http/error-map.js";
import { readIdempotencyKey } from "../http/idempotency-key-header.js";
import { readBody } from "../http/read-body.js";
import { readQuery } from "../http/read-query.js";
import { replayedRefusal } from "../http/replayed-refusal.js";
import { replyJson } from "../http/reply-json.js";
import { requestFingerprint } from "../http/request-fingerprint.js";
import {
  approveBatch,
  type BatchCreated,
  type BatchItem,
  type BatchItemList,
  type BatchItemRequest,
  type BatchList,
  cancelBatch,
  createBatch,
  getBatch,
  getBatchResults,
  listBatches,
  listBatchItems,
  MAX_BATCH_ITEMS,
  MAX_ITEMS_BODY_BYTES,
  MAX_ITEMS_PER_REQUEST,
  MAX_UPLOAD_BYTES,
  putBatchItems,
  removeBatchItem,
  retryFailedBatchItems,
  uploadBatch,
} from "../operations/partner/batch-api.js";

/** Items per ListBatchItems call when streaming the results file. */
const RESULTS_PAGE = 100;

export async function registerBatchRoutes(app: FastifyInstance, deps: GatewayDeps): Promise<void> {
  const { batches } = deps.clients;

  /** Sends `items` after `alreadySent` of them, in requests of at most 1,000. */
  async function putRest(partnerId: string, batchId: string, items: BatchItemInit[], alreadySent: number) {
    for (let at = alreadySent; at < items.length; at += MAX_ITEMS_PER_REQUEST) {
      await batches.putBatchItems({ partnerId, batchId, items: items.slice(at, at + MAX_ITEMS_PER_REQUEST) });
    }
  }

  addRoute(
    app,
    createBatch,
    async (request, reply) => {
      const { partnerId } = partnerOf(request);
      const idempotencyKey = readIdempotencyKey(request, "batch");
      const body = readBody(createBatch.body, request.body);
      const items = checkedItems(body.items, "items");
      try {
        const res = await batches.createBatch({
          partnerId,
          items,
          requiredApprovals: body.required_approvals ?? 1,
          nameMismatchPolicy: policyFromName(body.name_mismatch_policy),
          source: "json",
          idempotencyKey,
          requestFingerprint: requestFingerprint("POST /batches", request.body, {}),
          requestId: request.id,
        });
        return created(reply, res.batch, items.length, res.replayed);
      } catch (error) {
        return refused(error, request, reply);
      }
    },
    undefined,
    { bodyLimit: MAX_ITEMS_BODY_BYTES },
  );

  // An encapsulated scope, so the file parsers apply to the upload route only: they hand it the request
  // stream unread.
  await app.register(async (scope) => {
    // Every other type too (JSON included): the route answers it 415 naming the types it takes, unread.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
    addRoute(scope, uploadBatch, async (request, reply) => {
      const { partnerId } = partnerOf(request);
      const idempotencyKey = readIdempotencyKey(request, "upload");
      const query = readQuery(uploadBatch.query, request.query);
      const format = uploadFormatOf(request);
      const { items, sha256 } = await readUpload(request.body as Readable, format, reply);
      try {
        const res = await batches.createBatch({
          partnerId,
          items: items.slice(0, MAX_ITEMS_PER_REQUEST),
          requiredApprovals: query.required_approvals ?? 1,
          nameMismatchPolicy: policyFromName(query.name_mismatch_policy),
          contentSha256: sha256,
          source: format,
          idempotencyKey,
          requestFingerprint: requestFingerprint(
            "POST /batches/upload",
            { content_sha256: sha256, format },
            query,
          ),
          requestId: request.id,
        });
        const batch = res.batch;
        if (batch === undefined) throw new Error("ledger answered no batch");
        // A replay whose first request stopped before its last items (the process ended) sends the rest.
        const sent = res.replayed ? (batch.counts?.total ?? 0) : MAX_ITEMS_PER_REQUEST;
        await putRest(partnerId, batch.batchId, items, Math.max(sent, MAX_ITEMS_PER_REQUEST));
        return created(reply, batch, items.length, res.replayed);
      } catch (error) {
        return refused(error, request, reply);
      }
    });
  });

  addRoute(app, listBatches, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const { status, ...paging } = readQuery(listBatches.query, request.query);
    const res = await batches.listBatches({
      partnerId,
      ...(status ? { status: batchStatusFromName(status) } : {}),
      ...paging,
    });
    const page: BatchList = {
      batches: res.batches.map((b) => renderBatch(b)),
      next_cursor: res.nextCursor || null,
    };
    return replyJson(reply, 200, page);
  });

  addRoute(app, getBatch, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const res = await batches.getBatch({ partnerId, batchId: request.params.batch_id });
    return replyJson(reply, 200, renderBatch(res.batch));
  });

  addRoute(app, listBatchItems, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const { status, ...paging } = readQuery(listBatchItems.query, request.query);
    const res = await batches.listBatchItems({
      partnerId,
      batchId: request.params.batch_id,
      ...(status ? { status: batchItemStatusFromName(status) } : {}),
      ...paging,
    });
    const page: BatchItemList = {
      items: res.items.map(renderBatchItem),
      next_cursor: res.nextCursor || null,
    };
    return replyJson(reply, 200, page);
  });

  addRoute(
    app,
    putBatchItems,
    async (request, reply) => {
      const { partnerId } = partnerOf(request);
      const body = readBody(putBatchItems.body, request.body);
      const items = checkedItems(body.items, "items");
      const res = await batches.putBatchItems({ partnerId, batchId: request.params.batch_id, items });
      return replyJson(reply, 200, renderBatch(res.batch));
    },
    undefined,
    { bodyLimit: MAX_ITEMS_BODY_BYTES },
  );

  addRoute(app, removeBatchItem, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const { batch_id: batchId, item_ref: itemRef } = request.params;
    const res = await batches.removeBatchItems({ partnerId, batchId, itemRefs: [itemRef] });
    return replyJson(reply, 200, renderBatch(res.batch));
  });

  addRoute(app, approveBatch, async (request, reply) => {
    const { partnerId, clientId } = partnerOf(request);
    try {
      const res = await batches.approveBatch({
        partnerId,
        batchId: request.params.batch_id,
        approverId: clientId,
      });
      return replyJson(reply, 200, renderBatch(res.batch));
    } catch (error) {
      return refused(error, request, reply);
    }
  });

  addRoute(app, cancelBatch, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const body = readBody(cancelBatch.body, request.body);
    const res = await batches.cancelBatch({
      partnerId,
      batchId: request.params.batch_id,
      reason: partnerCancelReason(body.reason),
    });
    return replyJson(reply, 200, renderBatch(res.batch));
  });

  addRoute(app, retryFailedBatchItems, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const idempotencyKey = readIdempotencyKey(request, "retry");
    const batchId = request.params.batch_id;
    try {
      const res = await batches.retryFailedItems({
        partnerId,
        batchId,
        idempotencyKey,
        requestFingerprint: requestFingerprint("POST /batches/{batch_id}/retry-failed", null, { batchId }),
        requestId: request.id,
      });
      return created(reply, res.batch, res.batch?.counts?.total ?? 0, res.replayed);
    } catch (error) {
      return refused(error, request, reply);
    }
  });

  addRoute(app, getBatchResults, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const batchId = request.params.batch_id;
    const page = (cursor: string) =>
      batches.listBatchItems({ partnerId, batchId, limit: RESULTS_PAGE, cursor });
    // The first page is read before the status line, so an unknown batch or a ledger that is down is a
    // proper 404 or 503 rather than a cut-off file.
    const first = await page("");
    async function* items(): AsyncGenerator<BatchItem> {
      let res = first;
      for (;;) {
        for (const item of res.items) yield renderBatchItem(item);
        if (!res.nextCursor) return;
        res = await page(res.nextCursor);
      }
    }
    reply.header("Content-Disposition", `attachment; filename="batch-${batchId}-results.csv"`);
    return reply.code(200).type("text/csv; charset=utf-8").send(resultsCsv(items()));
  });
}

/** The items of a JSON request, each read with its shape, item_refs unique within the request. */
function checkedItems(items: readonly BatchItemRequest[], field: string): BatchItemInit[] {
  const refs = new ItemRefSet();
  return items.map((item, i) => {
    const input = batchItemInput(item);
    refs.add(input.itemRef ?? "", `${field}[${i}]`);
    return input;
  });
}

function uploadFormatOf(request: FastifyRequest): UploadFormat {
  const type = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type === "text/csv" && isStream(request.body)) return "csv";
  if (type === "application/x-ndjson" && isStream(request.body)) return "ndjson";
  throw new ApiError(415, "INVALID_FIELD", "Content-Type must be text/csv or application/x-ndjson");
}

const isStream = (body: unknown): body is Readable =>
  typeof body === "object" && body !== null && typeof (body as Readable).pipe === "function";

/**
 * Reads every row of the file into the ledger's item inputs (at most 10,000 of them, a few MB) and the
 * file's hash. A refusal stops reading there; the connection is closed after the answer, so what the
 * client still sends is discarded, never read into memory.
 */
async function readUpload(
  source: Readable,
  format: UploadFormat,
  reply: FastifyReply,
): Promise<{ items: BatchItemInit[]; sha256: string }> {
  const { rows, digest } = uploadRows(source, format, {
    maxRows: MAX_BATCH_ITEMS,
    maxBytes: MAX_UPLOAD_BYTES,
  });
  const items: BatchItemInit[] = [];
  const refs = new ItemRefSet();
  try {
    for await (const row of rows) {
      const where = `rows[${row.rowNumber}]`;
      const item = readBatchItem(row.item, `${where}.`);
      refs.add(item.itemRef ?? "", where);
      items.push(item);
    }
  } catch (error) {
    reply.header("Connection", "close");
    throw error;
  }
  if (items.length === 0) throw invalidField("file", "has no rows");
  return { items, sha256: digest.sha256() };
}

function created(
  reply: FastifyReply,
  batch: BatchMessage | undefined,
  itemsReceived: number,
  replayed: boolean,
): FastifyReply {
  const rendered = renderBatch(batch);
  const body: BatchCreated = {
    batch_id: rendered.batch_id,
    items_received: itemsReceived,
    source: rendered.source,
    content_sha256: rendered.content_sha256,
    required_approvals: rendered.required_approvals,
    name_mismatch_policy: rendered.name_mismatch_policy,
    created_at: rendered.created_at,
  };
  if (replayed) reply.header("Idempotent-Replayed", "true");
  reply.header("Location", `/batches/${rendered.batch_id}`);
  return replyJson(reply, 202, body);
}

/**
 * A ledger refusal with its facts in the error body: BATCH_DUPLICATE names the first batch (`batch_id` and
 * a `Link`), INSUFFICIENT_FUNDS the shortfall. A stored refusal under an idempotency key is replayed as
 * first answered.
 */
function refused(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const detail = errorDetailOf(error);
  if (!(error instanceof ConnectError) || !detail || !isReason(detail.reason)) throw error;
  if (detail.metadata.replayed === "true") return replayedRefusal(error, request, reply);
  const status = httpStatusFor(detail.reason, error.code);
  const field = detail.field || undefined;
  if (detail.reason === "BATCH_DUPLICATE" && detail.metadata.batch_id) {
    const first = detail.metadata.batch_id;
    throw new ApiError(
      status,
      detail.reason,
      error.rawMessage,
      field,
      { Link: `</batches/${first}>; rel="duplicate"` },
      { batch_id: first },
    );
  }
  if (detail.reason === "INSUFFICIENT_FUNDS" && detail.metadata.shortfall_usd) {
    throw new ApiError(
      status,
      detail.reason,
      error.rawMessage,
      field,
      {},
      {
        shortfall_usd: detail.metadata.shortfall_usd,
      },
    );
  }
  throw error;
}

/** What a partner's cancellation keeps as the batch's `cancel_reason`, as an operator's names the operator. */
function partnerCancelReason(reason: string | undefined): string {
  return reason === undefined ? "cancelled by the partner" : `cancelled by the partner: ${reason}`;
}
