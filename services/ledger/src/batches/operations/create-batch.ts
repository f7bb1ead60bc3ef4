/**
 * CreateBatch and RetryFailedItems: a new batch with its items, each queued for validation, in one database
 * transaction with the idempotency key's record (ExecutePayout's contract: IDEMPOTENCY_KEY_IN_USE,
 * IDEMPOTENCY_KEY_REUSED, a replay answers the stored batch with replayed=true).
 */
import { fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import type { Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import {
  type Batch,
  type BatchItemInput,
  BatchItemInputSchema,
  BatchSchema,
  NameMismatchPolicy,
} from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { invalidField, missingField } from "../../domain/ledger-failure.js";
import { checkIdempotencyKey } from "../../domain/payout-execution.js";
import { claimIdempotencyKey } from "../../operations/claim-idempotency-key.js";
import { type KeyScope, storeKey } from "../../store/idempotency-store.js";
import { toBatchMessage } from "../batch-message.js";
import { BATCH, batchFailure } from "../domain/batch-failure.js";
import { checkItemInputs, readRequiredApprovals } from "../domain/batch-input.js";
import { RETRYABLE } from "../domain/batch-status.js";
import type { MismatchPolicy } from "../domain/name-match.js";
import {
  batchWithContent,
  findBatch,
  insertBatch,
  itemsIn,
  putItems,
  viewBatch,
} from "../store/batch-store.js";
import type { BatchDeps } from "./batch-deps.js";

export const CREATE_BATCH_ROUTE = "POST /batches";
export const RETRY_BATCH_ROUTE = "POST /batches/retry";

export interface IdempotentCall {
  readonly idempotencyKey: string;
  readonly fingerprint: string;
  readonly requestId: string;
}

export interface CreateBatchInput extends IdempotentCall {
  readonly partnerId: string;
  readonly items: readonly BatchItemInput[];
  readonly requiredApprovals: number;
  readonly nameMismatchPolicy: NameMismatchPolicy;
  readonly contentSha256: string;
  readonly source: string;
}

export interface BatchAnswer {
  readonly batch: Batch;
  readonly replayed: boolean;
}

/**
 * Refusals in this order: MISSING_REQUIRED_FIELD (partner_id), INVALID_FIELD (content_sha256, source,
 * required_approvals), the items' (BATCH_TOO_LARGE, item_ref, destination, amount), the key's, then
 * BATCH_DUPLICATE (metadata batch_id).
 */
export async function createBatch(deps: BatchDeps, input: CreateBatchInput): Promise<BatchAnswer> {
  if (!input.partnerId) throw missingField("partner_id");
  const contentSha256 = input.contentSha256.toLowerCase();
  if (contentSha256 !== "" && !/^[0-9a-f]{64}$/.test(contentSha256)) {
    throw invalidField("content_sha256", "must be 64 hex digits");
  }
  if (!["", "json", "csv", "ndjson"].includes(input.source))
    throw invalidField("source", "must be json, csv or ndjson");
  const requiredApprovals = readRequiredApprovals(input.requiredApprovals);
  checkItemInputs(input.items.map(factsOf));
  const policy: MismatchPolicy =
    input.nameMismatchPolicy === NameMismatchPolicy.INCLUDE ? "INCLUDE" : "EXCLUDE";
  const answer = await idempotently(deps, input.partnerId, CREATE_BATCH_ROUTE, input, async (q, now) => {
    if (contentSha256 !== "") {
      const first = await batchWithContent(q, input.partnerId, contentSha256);
      if (first) throw duplicate(first);
    }
    const batchId = newId("bat");
    const inserted = await insertBatch(q, {
      batchId,
      partnerId: input.partnerId,
      status: input.items.length === 0 ? "DRAFT" : "VALIDATING",
      requiredApprovals,
      nameMismatchPolicy: policy,
      contentSha256,
      source: input.source,
      parentBatchId: "",
      now,
    });
    if (!inserted) throw duplicate((await batchWithContent(q, input.partnerId, contentSha256)) ?? "");
    await putItems(q, batchId, input.items.map(storedItem), now);
    return batchId;
  });
  return answer;
}

export interface RetryInput extends IdempotentCall {
  readonly partnerId: string;
  readonly batchId: string;
}

/** A child batch with exactly the FAILED and EXCLUDED items of a COMPLETED batch, validated afresh. */
export async function retryFailedItems(deps: BatchDeps, input: RetryInput): Promise<BatchAnswer> {
  if (!input.partnerId) throw missingField("partner_id");
  if (!input.batchId) throw missingField("batch_id");
  return idempotently(deps, input.partnerId, RETRY_BATCH_ROUTE, input, async (q, now) => {
    const parent = await findBatch(q, input.batchId, input.partnerId, true);
    if (!parent) throw batchFailure(BATCH.of("BATCH_NOT_FOUND", input.batchId));
    if (parent.status !== "COMPLETED") {
      throw batchFailure(
        BATCH.of("BATCH_NOT_RETRYABLE", parent.batchId, `it is ${parent.status}, not COMPLETED`),
      );
    }
    const items = await itemsIn(q, parent.batchId, RETRYABLE);
    if (items.length === 0) {
      throw batchFailure(
        BATCH.of("BATCH_NOT_RETRYABLE", parent.batchId, "it has no FAILED or EXCLUDED item"),
      );
    }
    const batchId = newId("bat");
    await insertBatch(q, {
      batchId,
      partnerId: parent.partnerId,
      status: "VALIDATING",
      requiredApprovals: parent.requiredApprovals,
      nameMismatchPolicy: parent.nameMismatchPolicy,
      contentSha256: "",
      source: parent.source,
      parentBatchId: parent.batchId,
      now,
    });
    await putItems(
      q,
      batchId,
      items.map((i) => ({ itemRef: i.itemRef, input: i.input })),
      now,
    );
    return batchId;
  });
}

/**
 * Runs `create` (which returns the new batch's id) under the key, when one is given, and stores the batch as
 * created for replays; without a key, just runs it.
 */
async function idempotently(
  deps: BatchDeps,
  partnerId: string,
  route: string,
  call: IdempotentCall,
  create: (q: Queryable, now: Date) => Promise<string>,
): Promise<BatchAnswer> {
  if (call.idempotencyKey !== "") checkIdempotencyKey(call.idempotencyKey, call.fingerprint);
  const scope: KeyScope = { partnerId, route, key: call.idempotencyKey };
  const now = deps.now();
  const answer = await deps.db.transaction(async (q): Promise<BatchAnswer> => {
    if (call.idempotencyKey !== "") {
      const stored = await claimIdempotencyKey(q, scope, call.fingerprint, now);
      if (stored?.outcome.state === "succeeded") {
        return { batch: fromBinary(BatchSchema, stored.outcome.response), replayed: true };
      }
    }
    const batchId = await create(q, now);
    const batch = await findBatch(q, batchId, partnerId);
    if (!batch) throw new Error(`batch ${batchId} vanished in its own transaction`);
    const message = toBatchMessage(await viewBatch(q, batch));
    if (call.idempotencyKey !== "") {
      await storeKey(
        q,
        scope,
        {
          fingerprint: call.fingerprint,
          subject: { batchId },
          requestId: call.requestId,
          outcome: { state: "succeeded", response: toBinary(BatchSchema, message) },
        },
        now,
        new Date(now.getTime() + deps.config.idempotencyKeyTtlMs),
      );
    }
    return { batch: message, replayed: false };
  });
  if (!answer.replayed) deps.workQueued();
  return answer;
}

export function storedItem(input: BatchItemInput): { itemRef: string; input: Record<string, unknown> } {
  return {
    itemRef: input.itemRef,
    input: toJson(BatchItemInputSchema, input, { alwaysEmitImplicit: false }) as Record<string, unknown>,
  };
}

export function factsOf(input: BatchItemInput) {
  return {
    itemRef: input.itemRef,
    amount: input.amount.trim(),
    hasDestination: input.destination !== undefined,
  };
}

function duplicate(firstBatchId: string) {
  const failure = batchFailure(BATCH.of("BATCH_DUPLICATE", firstBatchId));
  failure.metadata = { batch_id: firstBatchId };
  return failure;
}
