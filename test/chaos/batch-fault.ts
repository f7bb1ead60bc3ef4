/**
 * The bulk payout fault: a batch of a few hundred items through the distributed topology (the ledger's
 * BatchService, called as the gateway), the ledger process (which runs the fan-out worker) killed with
 * SIGKILL at about 30 % and again at about 60 % of the fan-out and started again each time, then an audit
 * of the batch in the database: every item paid exactly once (one transaction, one debit), none lost, the
 * batch COMPLETED with nothing left in its reservation and exactly one `batch.completed` outbox row; then
 * the partner's receiver: that event accepted (signatures valid) under one event id, however often it came.
 */
import { BatchService } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import type pg from "pg";
import type { DistributedTopology } from "../e2e/support/distributed-topology.js";
import { grpcJsUnary } from "../e2e/support/grpc-js-unary.js";
import { withClient } from "./chaos-infra.js";
import type { ReceivedBatchCompletion } from "./chaos-receiver.js";

export interface BatchFaultContext {
  readonly topology: DistributedTopology;
  readonly databaseUrl: string;
  readonly partnerId: string;
  readonly customerId: string;
  readonly items: number;
  readonly downSeconds: number;
  readonly restartLedger: () => Promise<void>;
  readonly note: (text: string) => void;
  /** What the partner's receiver got of `batch.completed` so far. */
  readonly batchCompletions: () => readonly ReceivedBatchCompletion[];
}

/** The fractions of the fan-out at which the ledger is killed. */
export const KILL_AT = [0.3, 0.6] as const;
/** One item in this many goes to a Pix key the sandbox rail fails (the reversal path of a batch item). */
const FAIL_EVERY = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the batch through the kills; returns the problems found (none when the batch came through right). */
export async function runBatchUnderKills(ctx: BatchFaultContext): Promise<string[]> {
  const { topology } = ctx;
  const auth = async () => ({
    authorization: `Bearer ${await topology.serviceToken("gateway", "ledger")}`,
  });
  const ledger = () => topology.grpcAddress("ledger");
  const items = Array.from({ length: ctx.items }, (_, i) => ({
    itemRef: `item-${i + 1}`,
    amount: "54",
    partnerTransactionId: `batch-item-${i + 1}`,
    destination: {
      customerId: ctx.customerId,
      countryCode: "BR",
      paymentMethod: "payment_key",
      paymentDestination: (i + 1) % FAIL_EVERY === 0 ? "fail.chaos@example.com" : "52998224725",
      paymentDestinationCode: "PIX",
    },
  }));
  const created = await grpcJsUnary(
    ledger(),
    BatchService.method.createBatch,
    { partnerId: ctx.partnerId, items },
    30_000,
    await auth(),
  );
  const batchId = created.batch?.batchId ?? "";
  ctx.note(`batch ${batchId} of ${ctx.items} items created`);
  const db = <T>(fn: (client: pg.Client) => Promise<T>) => withClient(ctx.databaseUrl, fn);
  const status = () =>
    db(async (c) => {
      const res = await c.query<{ status: string }>("SELECT status FROM ledger.batches WHERE batch_id = $1", [
        batchId,
      ]);
      return res.rows[0]?.status ?? "";
    });
  const validatedBy = Date.now() + 120_000;
  while ((await status()) !== "VALIDATED") {
    if (Date.now() > validatedBy) return [`batch ${batchId} not VALIDATED within 120 s (${await status()})`];
    await sleep(200);
  }
  await grpcJsUnary(
    ledger(),
    BatchService.method.approveBatch,
    { partnerId: ctx.partnerId, batchId, approverId: "chaos" },
    30_000,
    await auth(),
  );
  const funded = await db(async (c) =>
    Number(
      (
        await c.query<{ n: string }>(
          "SELECT count(*) AS n FROM ledger.batch_work WHERE batch_id = $1 AND kind = 'execute'",
          [batchId],
        )
      ).rows[0]?.n,
    ),
  );
  ctx.note(`batch ${batchId} approved: ${funded} items funded`);
  const paid = () =>
    db(async (c) =>
      Number(
        (
          await c.query<{ n: string }>(
            "SELECT count(*) AS n FROM ledger.batch_items WHERE batch_id = $1 AND status NOT IN ('PENDING', 'INVALID', 'EXCLUDED')",
            [batchId],
          )
        ).rows[0]?.n,
      ),
    );
  const problems: string[] = [];
  for (const fraction of KILL_AT) {
    for (;;) {
      const done = await paid();
      if (done >= fraction * funded) {
        const pid = topology.pidOf("ledger");
        await topology.kill("ledger");
        ctx.note(
          `kill -9 ledger (pid ${pid}) at ${done} of ${funded} items paid (${Math.round((100 * done) / funded)} %)`,
        );
        if (done >= funded) problems.push(`the fan-out was over before the kill at ${fraction * 100} %`);
        break;
      }
      await sleep(20);
    }
    await sleep(ctx.downSeconds * 1000);
    await ctx.restartLedger();
  }
  const completedBy = Date.now() + 180_000;
  while ((await status()) !== "COMPLETED") {
    if (Date.now() > completedBy) {
      problems.push(`batch ${batchId} not COMPLETED within 180 s of the last restart (${await status()})`);
      break;
    }
    await sleep(500);
  }
  problems.push(...(await auditBatch(ctx.databaseUrl, batchId, ctx.items)));
  return [...problems, ...(await awaitBatchCompleted(ctx, batchId))];
}

/** Waits up to 60 s for the receiver to accept the batch's `batch.completed`; the problems found. */
async function awaitBatchCompleted(ctx: BatchFaultContext, batchId: string): Promise<string[]> {
  const ofBatch = () => ctx.batchCompletions().filter((n) => n.batchId === batchId);
  const by = Date.now() + 60_000;
  while (!ofBatch().some((n) => n.answer === 200) && Date.now() < by) await sleep(200);
  const received = ofBatch();
  const accepted = received.filter((n) => n.answer === 200);
  const problems: string[] = [];
  if (accepted.length === 0) {
    const answers = received.map((n) => n.answer).join(", ") || "nothing";
    problems.push(
      `batch.completed of ${batchId} not accepted by the receiver within 60 s (answers: ${answers})`,
    );
  }
  const eventIds = new Set(received.map((n) => n.eventId));
  if (eventIds.size > 1) problems.push(`batch.completed of ${batchId} came under ${eventIds.size} event ids`);
  if (received.some((n) => n.partnerId !== ctx.partnerId))
    problems.push(`batch.completed of ${batchId} arrived on another partner's path`);
  return problems;
}

/** The batch's audit, straight from the ledger's tables. */
export async function auditBatch(databaseUrl: string, batchId: string, items: number): Promise<string[]> {
  return withClient(databaseUrl, async (c) => {
    const problems: string[] = [];
    const batch = (
      await c.query<{ status: string; held: string; partner_id: string }>(
        "SELECT status, held_usd::text AS held, partner_id FROM ledger.batches WHERE batch_id = $1",
        [batchId],
      )
    ).rows[0];
    if (batch?.status !== "COMPLETED") problems.push(`batch ${batchId} is ${batch?.status}, not COMPLETED`);
    if (Number(batch?.held) !== 0) problems.push(`batch ${batchId} still holds ${batch?.held} USD`);
    const reservation = await c.query<{ balance: string }>(
      "SELECT balance::text AS balance FROM ledger.accounts WHERE partner_id = $1 AND kind = 'reservation'",
      [batch?.partner_id],
    );
    if (Number(reservation.rows[0]?.balance) !== 0)
      problems.push(`reservation account holds ${reservation.rows[0]?.balance} USD`);
    const byStatus = await c.query<{ status: string; n: string }>(
      "SELECT status, count(*) AS n FROM ledger.batch_items WHERE batch_id = $1 GROUP BY status",
      [batchId],
    );
    const counts = Object.fromEntries(byStatus.rows.map((r) => [r.status, Number(r.n)]));
    const final = (counts.SUCCESS ?? 0) + (counts.FAILED ?? 0) + (counts.REFUNDED ?? 0);
    if (final !== items) problems.push(`${final} of ${items} items final: ${JSON.stringify(counts)}`);
    const twoTx = await c.query<{ item_ref: string; n: string }>(
      `SELECT item_ref, count(*) AS n FROM ledger.transactions WHERE batch_id = $1
        GROUP BY item_ref HAVING count(*) <> 1`,
      [batchId],
    );
    for (const r of twoTx.rows) problems.push(`item ${r.item_ref} has ${r.n} transactions`);
    const debits = await c.query<{ item_ref: string; n: string }>(
      `SELECT i.item_ref, count(m.movement_id) AS n
         FROM ledger.batch_items i
         LEFT JOIN ledger.movements m ON m.tx_id = i.tx_id AND m.kind IN ('payout', 'batch_payout')
        WHERE i.batch_id = $1 GROUP BY i.item_ref HAVING count(m.movement_id) <> 1`,
      [batchId],
    );
    for (const r of debits.rows) problems.push(`item ${r.item_ref} has ${r.n} debits`);
    const completions = await c.query<{ n: string }>(
      "SELECT count(*) AS n FROM ledger.outbox WHERE event_key = $1 AND event_type = 'batch.completed'",
      [batchId],
    );
    if (Number(completions.rows[0]?.n) !== 1)
      problems.push(`${completions.rows[0]?.n} batch.completed outbox rows, not 1`);
    return problems;
  });
}
