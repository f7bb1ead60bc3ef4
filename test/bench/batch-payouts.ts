/**
 * Bulk payouts against single ones, same run, same partner. First N/4 single payouts (after one unmeasured
 * round; lookup and quote unmeasured, then executePayout `concurrency` at a time: payouts/s); then a batch of N items created through
 * the partner API (1,000 items per request), validated, approved, and polled until every item's payout is
 * accepted (PROCESSING or final): items/s from the approval. The sandbox rail does not settle on its own in
 * the bench, so the bench then settles every item through the admin route and waits for COMPLETED.
 */
import type { BatchItemRequest, PayoutsClient } from "@payouts/client";
import type { BatchResult } from "./bench-results.js";
import { type BenchTenant, LOOKUP_DESTINATION, QUOTE_AMOUNT_BRL } from "./bench-seed.js";
import { adminCall, mapConcurrent, type PlatformEndpoints, partnerClient } from "./platform-api.js";

/** Items of the batch; --quick uses fewer. */
export const BATCH_ITEMS = { full: 2_000, quick: 300 } as const;
/** Items per POST /batches or PUT /batches/{id}/items (the API's limit). */
const ITEMS_PER_REQUEST = 1_000;
const POLL_MS = 100;
const VALIDATION_TIMEOUT_MS = 120_000;
const FAN_OUT_TIMEOUT_MS = 120_000;
const SETTLE_CONCURRENCY = 20;

export interface BatchBenchTarget {
  readonly platform: PlatformEndpoints;
  readonly tenant: BenchTenant;
  readonly runId: string;
  /** executePayout requests in flight while the single-payout rate is measured. */
  readonly concurrency: number;
  readonly log: (line: string) => void;
}

export async function measureBatchPayouts(target: BatchBenchTarget, items: number): Promise<BatchResult> {
  const { platform, tenant, runId, log } = target;
  const partner = partnerClient(platform, tenant);
  const singles = Math.max(1, Math.round(items / 4));
  log(
    `batch: ${singles} single payouts (lookup and quote first, then executePayout × ${target.concurrency})`,
  );
  const single = await measureSinglePayouts(partner, tenant, runId, singles, target.concurrency);
  log(`batch: single executePayout ${single.perSecond.toFixed(1)}/s`);

  const requests = Array.from({ length: items }, (_, i) => batchItem(tenant, runId, i));
  const created = await partner.createBatch({ items: requests.slice(0, ITEMS_PER_REQUEST) });
  const batchId = created.batch.batch_id;
  for (let at = ITEMS_PER_REQUEST; at < items; at += ITEMS_PER_REQUEST) {
    await partner.putBatchItems(batchId, requests.slice(at, at + ITEMS_PER_REQUEST));
  }
  const tCreated = performance.now();
  const validated = await partner.waitForValidation(batchId, {
    intervalMs: POLL_MS,
    timeoutMs: VALIDATION_TIMEOUT_MS,
  });
  const validationSeconds = (performance.now() - tCreated) / 1000;
  if (validated.status !== "VALIDATED" || validated.counts.pending !== items) {
    throw new Error(
      `batch ${batchId}: ${validated.status} with counts ${JSON.stringify(validated.counts)} (expected ${items} payable items)`,
    );
  }
  log(`batch ${batchId}: ${items} items validated in ${validationSeconds.toFixed(1)} s; approving`);

  const tApproved = performance.now();
  await partner.approveBatch(batchId);
  const accepted = await pollUntil(partner, batchId, (b) => b.counts.pending === 0, FAN_OUT_TIMEOUT_MS);
  const acceptedSeconds = (performance.now() - tApproved) / 1000;
  if (!accepted.done) {
    throw new Error(
      `batch ${batchId}: still ${JSON.stringify(accepted.batch.counts)} after the fan-out's time`,
    );
  }
  const acceptedPerSecond = items / acceptedSeconds;
  log(
    `batch: ${items} items accepted in ${acceptedSeconds.toFixed(2)} s = ${acceptedPerSecond.toFixed(1)}/s`,
  );

  const txIds: string[] = [];
  for await (const item of partner.batchItems(batchId)) if (item.tx_id) txIds.push(item.tx_id);
  await mapConcurrent(txIds, SETTLE_CONCURRENCY, (txId) =>
    adminCall(platform, 200, "POST", `/admin/sandbox/transactions/${txId}/settle`, { outcome: "SUCCESS" }),
  );
  const completed = await pollUntil(partner, batchId, (b) => b.status === "COMPLETED", FAN_OUT_TIMEOUT_MS);
  const completedSeconds = (performance.now() - tApproved) / 1000;
  if (!completed.done) {
    throw new Error(`batch ${batchId}: ${completed.batch.status} after every item was settled`);
  }
  log(`batch: COMPLETED ${completedSeconds.toFixed(2)} s after approval (settlement included)`);
  return {
    items,
    validationSeconds,
    acceptedSeconds,
    acceptedPerSecond,
    completedSeconds,
    singlePayouts: singles,
    singleConcurrency: target.concurrency,
    singlePerSecond: single.perSecond,
    ratio: acceptedPerSecond / single.perSecond,
  };
}

function batchItem(tenant: BenchTenant, runId: string, i: number): BatchItemRequest {
  return {
    item_ref: `item-${i}`,
    partner_transaction_id: `bench-${runId}-batch-${i}`,
    amount: QUOTE_AMOUNT_BRL,
    customer_id: tenant.customerId,
    ...LOOKUP_DESTINATION,
  };
}

/** Payouts/s of `count` executePayout calls, `concurrency` in flight, on transactions quoted beforehand. */
async function measureSinglePayouts(
  partner: PayoutsClient,
  tenant: BenchTenant,
  runId: string,
  count: number,
  concurrency: number,
): Promise<{ perSecond: number }> {
  const quote = (n: number) =>
    mapConcurrent(
      Array.from({ length: n }, (_, i) => i),
      concurrency,
      async () => {
        const looked = await partner.lookupPaymentCode({
          customer_id: tenant.customerId,
          ...LOOKUP_DESTINATION,
        });
        await partner.getQuotation({ tx_id: looked.tx_id, amount: QUOTE_AMOUNT_BRL });
        return looked.tx_id;
      },
    );
  const execute = (txIds: readonly string[]) =>
    mapConcurrent(txIds, concurrency, (txId) =>
      partner.executePayout({ tx_id: txId }, { idempotencyKey: `bench-${runId}-single-${txId}` }),
    );
  // One unmeasured round first (code loaded and compiled, pools filled), as the batch is measured after
  // its own validation has warmed the same paths.
  await execute(await quote(Math.min(concurrency, count)));
  const quoted = await quote(count);
  const t0 = performance.now();
  await execute(quoted);
  return { perSecond: count / ((performance.now() - t0) / 1000) };
}

type BatchAnswer = Awaited<ReturnType<PayoutsClient["getBatch"]>>;

async function pollUntil(
  partner: PayoutsClient,
  batchId: string,
  done: (batch: BatchAnswer) => boolean,
  timeoutMs: number,
): Promise<{ done: boolean; batch: BatchAnswer }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const batch = await partner.getBatch(batchId);
    if (done(batch)) return { done: true, batch };
    if (performance.now() >= deadline) return { done: false, batch };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
