/**
 * The noisy-neighbour scenario: partner A's receivers are down (first refusing connections, then
 * accepting and never answering) with a large backlog of A's deliveries pending, while partner B, with a
 * healthy receiver of its own, gets a steady load; then A's receivers answer again on the same ports and
 * A's backlog drains while B's load goes on. B's latency and CPU per delivery are compared with a run of
 * B alone, made first.
 */
import type { EventBus } from "@payouts/platform/events/event-bus";
import type { NoisyNeighbourOptions } from "./bench-options.js";
import { NOISY_PHASES, type NoisyNeighbourResult, type WebhookPhaseResult } from "./bench-results.js";
import { seedWebhookPartner } from "./bench-seed.js";
import { freePort } from "./free-port.js";
import { type PlatformEndpoints, partnerClient } from "./platform-api.js";
import type { ProcessMonitor } from "./process-stats.js";
import { SilentReceiver } from "./silent-receiver.js";
import { auditTransactionOrder } from "./transaction-order.js";
import {
  type BenchEvent,
  drain,
  type FanOutTarget,
  newEvent,
  type Published,
  publishAll,
  publishPaced,
  runPaced,
  summarise,
  TimingReceiver,
} from "./webhook-fanout.js";
import { countByStatus, waitForRows } from "./webhook-rows.js";

export interface ScenarioContext {
  /** Publishes signed events, as the ledger's relay does. */
  readonly bus: EventBus;
  readonly monitor: ProcessMonitor;
  readonly platform: PlatformEndpoints;
  /** The run's database, to see A's delivery rows stored. */
  readonly databaseUrl: string;
  readonly runId: string;
  readonly drainTimeoutMs: number;
  readonly timelineFile?: string;
  readonly log: (line: string) => void;
  /** Registers a cleanup that runs even when the run is interrupted. */
  readonly onCleanup: (name: string, run: () => Promise<void>) => void;
}

/** Every fifth of A's transactions has two events: transaction.success (3), then transaction.refunded (4). */
const TWO_EVENT_EVERY = 5;

export async function runNoisyNeighbour(
  ctx: ScenarioContext,
  options: NoisyNeighbourOptions,
): Promise<{ phases: WebhookPhaseResult[]; result: NoisyNeighbourResult }> {
  const a = await seedWebhookPartner(ctx.platform, "Noisy neighbour A");
  const b = await seedWebhookPartner(ctx.platform, "Neighbour B");
  const bReceiver = new TimingReceiver("bench-webhook-secret-b-0123456789");
  const bOrigin = await bReceiver.start();
  ctx.onCleanup("webhook receiver B", () => bReceiver.stop());
  await partnerClient(ctx.platform, b).createWebhookConfig({
    url: `${bOrigin}/b`,
    events: ["transaction.success"],
    secret: bReceiver.secret,
  });
  // A's receivers: a port each, nothing listening on it yet (connections are refused).
  const aPorts: number[] = [];
  const aReceivers: TimingReceiver[] = [];
  const aConfigIds: string[] = [];
  const aPartner = partnerClient(ctx.platform, a);
  for (let i = 0; i < options.aConfigs; i++) {
    const port = await freePort();
    const receiver = new TimingReceiver(`bench-webhook-secret-a${i}-0123456789`);
    const config = await aPartner.createWebhookConfig({
      url: `http://127.0.0.1:${port}/a-${i}`,
      events: ["transaction.success", "transaction.refunded"],
      secret: receiver.secret,
    });
    aPorts.push(port);
    aReceivers.push(receiver);
    aConfigIds.push(config.config_id);
    ctx.onCleanup(`webhook receiver A${i}`, () => receiver.stop());
  }
  const bSent = new Set<string>();
  const bTarget = (suffix: string): FanOutTarget => ({
    sent: bSent,
    bus: ctx.bus,
    partnerId: b.partnerId,
    receivers: [bReceiver],
    monitor: ctx.monitor,
    drainTimeoutMs: ctx.drainTimeoutMs,
    runId: `${ctx.runId}${suffix}`,
    ...(ctx.timelineFile ? { timelineFile: ctx.timelineFile } : {}),
  });
  const bPhase = (suffix: string, phase: string) =>
    runPaced(bTarget(suffix), options.bRate, options.phaseSeconds, { phase });
  const phases: WebhookPhaseResult[] = [];

  ctx.log(`noisy neighbour: B alone, ${options.bRate} deliveries/s for ${options.phaseSeconds} s`);
  phases.push(await bPhase("nb0", NOISY_PHASES.alone));

  const aTarget: FanOutTarget = {
    bus: ctx.bus,
    partnerId: a.partnerId,
    receivers: aReceivers,
    monitor: ctx.monitor,
    drainTimeoutMs: ctx.drainTimeoutMs,
    runId: `${ctx.runId}na`,
    ...(ctx.timelineFile ? { timelineFile: ctx.timelineFile } : {}),
  };
  const { events, twoEventTransactions } = backlogEvents(aTarget, options.aEvents);
  const expected = events.length * options.aConfigs;
  ctx.log(`noisy neighbour: A's backlog, ${events.length} events × ${options.aConfigs} configs`);
  const aPublished: Published = new Map();
  const publishMs = await publishAll(aTarget, events, aPublished);
  const rows = await waitForRows(ctx.databaseUrl, aConfigIds, expected, options.backlogLimitSeconds);
  const generationStart = Math.min(...aPublished.values());
  const storedSeconds = rows.storedAt === undefined ? 0 : (rows.storedAt - generationStart) / 1000;
  ctx.log(
    `noisy neighbour: ${rows.stored}/${expected} of A's deliveries stored in ${storedSeconds.toFixed(1)} s (published in ${(publishMs / 1000).toFixed(1)} s)`,
  );

  ctx.log("noisy neighbour: B beside A's backlog, A's receivers refuse connections");
  phases.push(await bPhase("nb1", NOISY_PHASES.refused));

  ctx.log("noisy neighbour: B beside A's backlog, A's receivers accept and never answer");
  const silent = aPorts.map(() => new SilentReceiver());
  for (const [i, s] of silent.entries()) await s.start(aPorts[i]!);
  try {
    phases.push(await bPhase("nb2", NOISY_PHASES.silent));
  } finally {
    for (const s of silent) await s.stop();
  }

  ctx.log("recovery: A's receivers answer 2xx again on the same ports; B's load goes on");
  for (const [i, r] of aReceivers.entries()) await r.start(aPorts[i]!);
  const drained = await drainBesideB(ctx, bTarget("nb3"), aTarget, aPublished, options);
  phases.push(drained.b, drained.a);

  let transactionsChecked = 0;
  let outOfOrder = 0;
  for (const r of aReceivers) {
    const audit = auditTransactionOrder(events, (id) => r.arrivalIndexOf(id));
    transactionsChecked += audit.transactions;
    outOfOrder += audit.outOfOrder;
  }
  const rowsByStatus = await countByStatus(ctx.databaseUrl, aConfigIds);
  for (const r of aReceivers) await r.stop();
  await bReceiver.stop();
  return {
    phases,
    result: {
      backlog: {
        configs: options.aConfigs,
        events: events.length,
        twoEventTransactions,
        deliveries: expected,
        publishSeconds: publishMs / 1000,
        storedSeconds,
        stored: rows.stored,
      },
      drain: {
        expected,
        arrived: drained.a.deliveries,
        seconds: drained.seconds,
        deliveriesPerSecond: drained.a.deliveriesPerSecond,
        ended: drained.ended,
        transactionsChecked,
        outOfOrder,
        rowsByStatus,
      },
    },
  };
}

/** `count` events of A: transactions of one event, and every TWO_EVENT_EVERY-th one of two. */
export function backlogEvents(
  target: Pick<FanOutTarget, "runId" | "partnerId">,
  count: number,
): { events: BenchEvent[]; twoEventTransactions: number } {
  const events: BenchEvent[] = [];
  let twoEventTransactions = 0;
  for (let k = 0; events.length < count; k++) {
    const txId = `tx_bench_${target.runId}_a${k}`;
    events.push(newEvent(target, `a${k}s`, { txId, eventType: "transaction.success", sequence: 3 }));
    if (k % TWO_EVENT_EVERY === 0 && events.length < count) {
      events.push(newEvent(target, `a${k}r`, { txId, eventType: "transaction.refunded", sequence: 4 }));
      twoEventTransactions++;
    }
  }
  return { events, twoEventTransactions };
}

/**
 * B's paced load while A's backlog drains: B publishes until A's drain ends (everything arrived, nothing
 * arrived for `stallSeconds`, or `drainLimitSeconds`), then B's last deliveries are awaited. Both phases
 * share one CPU window, so CPU per delivery is over A's and B's deliveries together.
 */
async function drainBesideB(
  ctx: ScenarioContext,
  bTarget: FanOutTarget,
  aTarget: FanOutTarget,
  aPublished: Published,
  options: NoisyNeighbourOptions,
): Promise<{
  a: WebhookPhaseResult;
  b: WebhookPhaseResult;
  seconds: number;
  ended: NoisyNeighbourResult["drain"]["ended"];
}> {
  for (const r of [...bTarget.receivers, ...aTarget.receivers]) r.reset();
  ctx.monitor.begin();
  const comeback = performance.now();
  const bPublished: Published = new Map();
  let aDone = false;
  const bPublishing = publishPaced(
    bTarget,
    options.bRate,
    options.drainLimitSeconds,
    bPublished,
    () => aDone,
  );
  const expected = aPublished.size * aTarget.receivers.length;
  const received = () => aTarget.receivers.reduce((sum, r) => sum + r.received, 0);
  let ended: NoisyNeighbourResult["drain"]["ended"] = "time limit";
  let lastCount = 0;
  let lastChange = comeback;
  while (performance.now() - comeback < options.drainLimitSeconds * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const count = received();
    const now = performance.now();
    if (count >= expected) {
      ended = "all arrived";
      break;
    }
    if (count !== lastCount) {
      lastCount = count;
      lastChange = now;
    } else if (now - lastChange >= options.stallSeconds * 1000) {
      ended = "stalled";
      break;
    }
  }
  aDone = true;
  const bPublishedMs = await bPublishing;
  await drain(bTarget, bPublished);
  const processes = ctx.monitor.end();
  const b = summarise(bTarget, {
    phase: NOISY_PHASES.drainB,
    rate: options.bRate,
    published: bPublished,
    publishedForMs: bPublishedMs,
    processes,
  });
  const a = summarise(aTarget, {
    phase: NOISY_PHASES.drainA,
    rate: 0,
    published: aPublished,
    publishedForMs: 0,
    processes,
  });
  let lastArrival = comeback;
  for (const r of aTarget.receivers) {
    for (const id of aPublished.keys()) lastArrival = Math.max(lastArrival, r.arrivalOf(id) ?? 0);
  }
  const seconds = (lastArrival - comeback) / 1000;
  const cpuSeconds = processes
    .filter((p) => p.name !== "bench" && p.name !== "kafka")
    .reduce((sum, p) => sum + p.cpuSeconds, 0);
  const both = a.deliveries + b.deliveries;
  const cpuMsPerDelivery = both > 0 ? (1000 * cpuSeconds) / both : 0;
  return {
    a: { ...a, deliveriesPerSecond: seconds > 0 ? a.deliveries / seconds : 0, cpuMsPerDelivery },
    b: { ...b, cpuMsPerDelivery },
    seconds,
    ended,
  };
}
