import { createHmac, timingSafeEqual } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EventBus } from "@payouts/platform/events/event-bus";
import { TRANSACTION_EVENTS_TOPIC } from "@payouts/platform/events/event-bus";
import { TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import type { WebhookPhaseResult } from "./bench-results.js";
import { percentile } from "./percentile.js";
import type { ProcessMonitor } from "./process-stats.js";

/**
 * One partner's webhook receiver, on a port (an origin) of its own: answers every POST with 200 `{}` at
 * once, checks the `X-<brand>-Signature` over the raw bytes with the config's secret, and notes when each
 * event first arrived and how often it arrived again. A delivery is one (event, receiver): its id at the
 * receiver is the `X-<brand>-Event-Id` header here, so the audit is exact per delivery.
 */
export class TimingReceiver {
  private server: Server | undefined;
  /** event id → first arrival (performance.now). */
  private readonly firstArrival = new Map<string, number>();
  private duplicateCount = 0;
  private badSignatureCount = 0;

  constructor(readonly secret: string) {}

  async start(): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const at = performance.now();
        if (!signedWith(this.secret, request.headers, Buffer.concat(chunks))) this.badSignatureCount++;
        const eventId = eventIdOf(request.headers);
        if (this.firstArrival.has(eventId)) this.duplicateCount++;
        else this.firstArrival.set(eventId, at);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    // Keep-alive connections stay open between deliveries (Node's default of 5 s would close idle ones).
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  }

  /** When this receiver first got the event (performance.now), if it did. */
  arrivalOf(eventId: string): number | undefined {
    return this.firstArrival.get(eventId);
  }

  /** Distinct events received. */
  get received(): number {
    return this.firstArrival.size;
  }

  get duplicates(): number {
    return this.duplicateCount;
  }

  get badSignatures(): number {
    return this.badSignatureCount;
  }

  reset(): void {
    this.firstArrival.clear();
    this.duplicateCount = 0;
    this.badSignatureCount = 0;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function header(headers: IncomingHttpHeaders, suffix: string): string | undefined {
  for (const [name, value] of Object.entries(headers)) {
    if (name.endsWith(suffix) && typeof value === "string") return value;
  }
  return undefined;
}

function eventIdOf(headers: IncomingHttpHeaders): string {
  return header(headers, "-event-id") ?? "unknown";
}

/** `X-<brand>-Signature` = base64(HMAC-SHA256(secret, raw body)), compared in constant time. */
function signedWith(secret: string, headers: IncomingHttpHeaders, body: Buffer): boolean {
  const given = Buffer.from(header(headers, "-signature") ?? "", "base64");
  const expected = createHmac("sha256", secret).update(body).digest();
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface FanOutTarget {
  readonly bus: EventBus;
  readonly partnerId: string;
  /** One per webhook config: every event fans out to each of them. */
  readonly receivers: readonly TimingReceiver[];
  readonly monitor: ProcessMonitor;
  /** How long to wait for the last deliveries after the last event was published. */
  readonly drainTimeoutMs: number;
  readonly runId: string;
  /** When set, each phase writes its per-second timeline to `<timelineFile>-<phase>.tsv`. */
  readonly timelineFile?: string;
}

/**
 * `count` events published as fast as the producer takes them (`count × receivers` deliveries queued at
 * once): how fast the dispatcher drains a backlog.
 */
export async function runBurst(target: FanOutTarget, count: number): Promise<WebhookPhaseResult> {
  const published = new Map<string, number>();
  reset(target);
  const events = Array.from({ length: count }, (_, i) => newEvent(target, `b${i}`));
  const started = performance.now();
  for (let i = 0; i < events.length; i += 200) {
    const batch = events.slice(i, i + 200);
    const at = performance.now();
    for (const e of batch) published.set(e.eventId, at);
    await target.bus.publish(batch.map((e) => e.message));
  }
  const publishedFor = performance.now() - started;
  await drain(target, published);
  return summarise(target, "burst", 0, published, publishedFor);
}

/**
 * `rate` events per second for `seconds` (`rate × receivers` deliveries per second offered): whether the
 * dispatcher keeps up, and the event-to-2xx latency at that steady load.
 */
export async function runPaced(
  target: FanOutTarget,
  rate: number,
  seconds: number,
): Promise<WebhookPhaseResult> {
  const published = new Map<string, number>();
  const total = rate * seconds;
  reset(target);
  const start = performance.now();
  let sent = 0;
  const sends: Promise<void>[] = [];
  while (sent < total) {
    // Catch up with the schedule every 20 ms: the events due by now, published as one batch.
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    if (due > sent) {
      const batch = Array.from({ length: due - sent }, (_, i) => newEvent(target, `p${sent + i}`));
      const at = performance.now();
      for (const e of batch) published.set(e.eventId, at);
      sends.push(target.bus.publish(batch.map((e) => e.message)));
      sent = due;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await Promise.all(sends);
  const publishedFor = performance.now() - start;
  await drain(target, published);
  return summarise(target, "paced", rate, published, publishedFor);
}

function reset(target: FanOutTarget): void {
  for (const r of target.receivers) r.reset();
  target.monitor.begin();
}

function arrived(target: FanOutTarget, published: ReadonlyMap<string, number>): number {
  let count = 0;
  for (const r of target.receivers) for (const eventId of published.keys()) if (r.arrivalOf(eventId)) count++;
  return count;
}

async function drain(target: FanOutTarget, published: ReadonlyMap<string, number>): Promise<void> {
  const expected = published.size * target.receivers.length;
  const deadline = performance.now() + target.drainTimeoutMs;
  // Cheap check first (distinct events per receiver), the exact one once that adds up.
  const received = () => target.receivers.reduce((sum, r) => sum + r.received, 0);
  while (performance.now() < deadline) {
    if (received() >= expected && arrived(target, published) >= expected) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Late copies (a retry after a lost answer) would arrive within moments: give them the chance to.
  await new Promise((resolve) => setTimeout(resolve, 500));
}

/**
 * The audit is per delivery, i.e. per (event, receiver): `missing` = published events a receiver never
 * got, `duplicates` = arrivals beyond the first of one delivery, `unexpected` = events a receiver got that
 * this phase did not publish. Rates count from the first event published to the last delivery.
 */
function summarise(
  target: FanOutTarget,
  phase: "burst" | "paced",
  rate: number,
  published: ReadonlyMap<string, number>,
  publishedForMs: number,
): WebhookPhaseResult {
  const processes = target.monitor.end();
  const latencies: number[] = [];
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const [eventId, at] of published) {
    first = Math.min(first, at);
    for (const receiver of target.receivers) {
      const arrival = receiver.arrivalOf(eventId);
      if (arrival === undefined) continue;
      latencies.push(arrival - at);
      last = Math.max(last, arrival);
    }
  }
  if (target.timelineFile) writeFileSync(`${target.timelineFile}-${phase}.tsv`, timeline(target, published));
  const fanOut = target.receivers.length;
  const expected = published.size * fanOut;
  const seconds = (last - first) / 1000;
  const received = target.receivers.reduce((sum, r) => sum + r.received, 0);
  const cpuSeconds = processes
    .filter((p) => p.name !== "bench" && p.name !== "kafka")
    .reduce((sum, p) => sum + p.cpuSeconds, 0);
  return {
    phase,
    events: published.size,
    offeredRate: rate,
    offeredDeliveriesPerSecond: rate * fanOut,
    publishedSeconds: publishedForMs / 1000,
    fanOut,
    expectedDeliveries: expected,
    deliveries: latencies.length,
    duplicates: target.receivers.reduce((sum, r) => sum + r.duplicates, 0),
    missing: expected - latencies.length,
    unexpected: received - latencies.length,
    badSignatures: target.receivers.reduce((sum, r) => sum + r.badSignatures, 0),
    deliveriesPerSecond: seconds > 0 ? latencies.length / seconds : 0,
    eventToAckMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: percentile(latencies, 100),
    },
    cpuMsPerDelivery: latencies.length > 0 ? (1000 * cpuSeconds) / latencies.length : 0,
    processes,
  };
}

/**
 * Per second of the phase (from its first publish): events published in that second and the
 * p50/p99/max event→2xx of their deliveries, and the deliveries that arrived in that second. A stall
 * shows as a run of seconds with few arrivals and then a spike of latency.
 */
function timeline(target: FanOutTarget, published: ReadonlyMap<string, number>): string {
  let first = Number.POSITIVE_INFINITY;
  for (const at of published.values()) first = Math.min(first, at);
  const byPublishSecond: number[][] = [];
  const arrivalsPerSecond: number[] = [];
  for (const [eventId, at] of published) {
    const second = Math.floor((at - first) / 1000);
    byPublishSecond[second] ??= [];
    for (const receiver of target.receivers) {
      const arrival = receiver.arrivalOf(eventId);
      if (arrival === undefined) continue;
      byPublishSecond[second].push(arrival - at);
      const arrivedSecond = Math.floor((arrival - first) / 1000);
      arrivalsPerSecond[arrivedSecond] = (arrivalsPerSecond[arrivedSecond] ?? 0) + 1;
    }
  }
  const lines = ["second\tdeliveries_published\tp50_ms\tp99_ms\tmax_ms\tarrived"];
  const seconds = Math.max(byPublishSecond.length, arrivalsPerSecond.length);
  for (let s = 0; s < seconds; s++) {
    const l = byPublishSecond[s] ?? [];
    const q = (p: number) => (l.length > 0 ? percentile(l, p).toFixed(0) : "-");
    lines.push([s, l.length, q(50), q(99), q(100), arrivalsPerSecond[s] ?? 0].join("\t"));
  }
  return `${lines.join("\n")}\n`;
}

/** A transaction.success event as the ledger's relay publishes it, for a transaction of its own. */
function newEvent(target: FanOutTarget, suffix: string) {
  const eventId = `evt_bench_${target.runId}_${suffix}`;
  const txId = `tx_bench_${target.runId}_${suffix}`;
  const event = create(TransactionEventSchema, {
    eventId,
    eventType: "transaction.success",
    occurredAt: timestampFromDate(new Date()),
    txId,
    partnerId: target.partnerId,
    status: "SUCCESS",
    sequence: 3n,
    amount: "54",
    currency: "BRL",
    amountUsd: "10",
    fee: "0.45",
    percentageFee: "0.15",
    fixedFee: "0.3",
    sender: { name_first: "Ana", name_last: "Souza", country: "BR" },
    recipient: { name_first: "Bruno", account_no: "52998224725" },
  });
  return {
    eventId,
    message: {
      topic: TRANSACTION_EVENTS_TOPIC,
      key: txId,
      value: toBinary(TransactionEventSchema, event),
      headers: { "event-id": eventId, "event-type": "transaction.success" },
    },
  };
}
