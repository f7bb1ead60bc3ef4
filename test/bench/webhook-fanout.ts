import { createHmac, timingSafeEqual } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EventBus, EventMessage } from "@payouts/platform/events/event-bus";
import { TRANSACTION_EVENTS_TOPIC } from "@payouts/platform/events/event-bus";
import { TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import type { WebhookPhaseResult } from "./bench-results.js";
import { latencyPerWindow, type TimedDelivery } from "./latency-windows.js";
import { percentile } from "./percentile.js";
import type { ProcessMonitor, ProcessUsage } from "./process-stats.js";

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
  /** event id → position of its first arrival among this receiver's distinct events. */
  private readonly arrivalIndex = new Map<string, number>();
  private duplicateCount = 0;
  private badSignatureCount = 0;

  constructor(readonly secret: string) {}

  /** Listens on `port` (0: any free one); answers the receiver's origin. */
  async start(port = 0): Promise<string> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const at = performance.now();
        if (!signedWith(this.secret, request.headers, Buffer.concat(chunks))) this.badSignatureCount++;
        const eventId = eventIdOf(request.headers);
        if (this.firstArrival.has(eventId)) this.duplicateCount++;
        else {
          this.arrivalIndex.set(eventId, this.firstArrival.size);
          this.firstArrival.set(eventId, at);
        }
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    // Keep-alive connections stay open between deliveries (Node's default of 5 s would close idle ones).
    this.server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  }

  /** When this receiver first got the event (performance.now), if it did. */
  arrivalOf(eventId: string): number | undefined {
    return this.firstArrival.get(eventId);
  }

  /** Position of the event's first arrival among the distinct events this receiver got, if it did. */
  arrivalIndexOf(eventId: string): number | undefined {
    return this.arrivalIndex.get(eventId);
  }

  /** Every distinct event id received. */
  eventIds(): IterableIterator<string> {
    return this.firstArrival.keys();
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
    this.arrivalIndex.clear();
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
  /**
   * Every event id published to these receivers by any phase of the run (each publish adds to it): an
   * arrival of an earlier phase's event is late, not unexpected.
   */
  readonly sent?: Set<string>;
  /** When set, each phase writes its per-second timeline to `<timelineFile>-<phase>.tsv`. */
  readonly timelineFile?: string;
}

/** Event id → when it was published (performance.now). */
export type Published = Map<string, number>;

/** Events published in batches as fast as the producer takes them; answers how long it took (ms). */
export async function publishAll(
  target: FanOutTarget,
  events: readonly BenchEvent[],
  published: Published,
): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < events.length; i += 200) {
    const batch = events.slice(i, i + 200);
    const at = performance.now();
    for (const e of batch) {
      published.set(e.eventId, at);
      target.sent?.add(e.eventId);
    }
    await target.bus.publish(batch.map((e) => e.message));
  }
  return performance.now() - started;
}

/**
 * `count` events published as fast as the producer takes them (`count × receivers` deliveries queued at
 * once): how fast the dispatcher drains a backlog.
 */
export async function runBurst(
  target: FanOutTarget,
  count: number,
  phase = "burst",
): Promise<WebhookPhaseResult> {
  const published: Published = new Map();
  reset(target);
  const events = Array.from({ length: count }, (_, i) => newEvent(target, `b${i}`));
  const publishedFor = await publishAll(target, events, published);
  await drain(target, published);
  return summarise(target, {
    phase,
    rate: 0,
    published,
    publishedForMs: publishedFor,
    processes: target.monitor.end(),
  });
}

/**
 * `rate` events per second for at most `seconds`, or until `stop()` answers true: catches up with the
 * schedule every 20 ms, publishing the events due by then as one batch.
 */
export async function publishPaced(
  target: FanOutTarget,
  rate: number,
  seconds: number,
  published: Published,
  stop: () => boolean = () => false,
): Promise<number> {
  const total = rate * seconds;
  const start = performance.now();
  let sent = 0;
  const sends: Promise<void>[] = [];
  while (sent < total && !stop()) {
    const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * rate));
    if (due > sent) {
      const batch = Array.from({ length: due - sent }, (_, i) => newEvent(target, `p${sent + i}`));
      const at = performance.now();
      for (const e of batch) {
        published.set(e.eventId, at);
        target.sent?.add(e.eventId);
      }
      sends.push(target.bus.publish(batch.map((e) => e.message)));
      sent = due;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await Promise.all(sends);
  return performance.now() - start;
}

/**
 * `rate` events per second for `seconds` (`rate × receivers` deliveries per second offered): whether the
 * dispatcher keeps up, and the event-to-2xx latency at that steady load (per window of `windowSeconds`
 * too, when given).
 */
export async function runPaced(
  target: FanOutTarget,
  rate: number,
  seconds: number,
  options: { readonly phase?: string; readonly windowSeconds?: number } = {},
): Promise<WebhookPhaseResult> {
  const published: Published = new Map();
  reset(target);
  const publishedFor = await publishPaced(target, rate, seconds, published);
  await drain(target, published);
  return summarise(target, {
    phase: options.phase ?? "paced",
    rate,
    published,
    publishedForMs: publishedFor,
    processes: target.monitor.end(),
    ...(options.windowSeconds ? { windowSeconds: options.windowSeconds } : {}),
  });
}

/** Clears the receivers and opens the monitor's window. */
export function reset(target: FanOutTarget): void {
  for (const r of target.receivers) r.reset();
  target.monitor.begin();
}

function arrived(target: FanOutTarget, published: ReadonlyMap<string, number>): number {
  let count = 0;
  for (const r of target.receivers) for (const eventId of published.keys()) if (r.arrivalOf(eventId)) count++;
  return count;
}

/** Waits until every (event, receiver) delivery arrived, or the target's drain timeout. */
export async function drain(target: FanOutTarget, published: ReadonlyMap<string, number>): Promise<void> {
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

export interface PhaseRecord {
  readonly phase: string;
  /** Events per second offered; 0 for all at once. */
  readonly rate: number;
  readonly published: ReadonlyMap<string, number>;
  readonly publishedForMs: number;
  /** CPU and memory of the watched processes over the phase. */
  readonly processes: readonly ProcessUsage[];
  /** Report latency percentiles per window of this many seconds (by publish time). */
  readonly windowSeconds?: number;
}

/**
 * The audit is per delivery, i.e. per (event, receiver): `missing` = published events a receiver never
 * got, `duplicates` = arrivals beyond the first of one delivery, `late` = events of an earlier phase that
 * arrived during this one (after that phase's drain window), `unexpected` = events a receiver got that no
 * phase published. Rates count from the first event published to the last delivery.
 */
export function summarise(target: FanOutTarget, record: PhaseRecord): WebhookPhaseResult {
  const { phase, rate, published, processes } = record;
  const timed: TimedDelivery[] = [];
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const [eventId, at] of published) {
    first = Math.min(first, at);
    for (const receiver of target.receivers) {
      const arrival = receiver.arrivalOf(eventId);
      if (arrival === undefined) continue;
      timed.push({ publishedAt: at, latencyMs: arrival - at });
      last = Math.max(last, arrival);
    }
  }
  const latencies = timed.map((t) => t.latencyMs);
  if (target.timelineFile) {
    writeFileSync(
      `${target.timelineFile}-${phase.replace(/[^a-z0-9]+/gi, "-")}.tsv`,
      timeline(target, published),
    );
  }
  const fanOut = target.receivers.length;
  const expected = published.size * fanOut;
  const seconds = (last - first) / 1000;
  let late = 0;
  let unexpected = 0;
  for (const r of target.receivers) {
    for (const id of r.eventIds()) {
      if (published.has(id)) continue;
      if (target.sent?.has(id)) late++;
      else unexpected++;
    }
  }
  const cpuSeconds = processes
    .filter((p) => p.name !== "bench" && p.name !== "kafka")
    .reduce((sum, p) => sum + p.cpuSeconds, 0);
  return {
    phase,
    events: published.size,
    offeredRate: rate,
    offeredDeliveriesPerSecond: rate * fanOut,
    publishedSeconds: record.publishedForMs / 1000,
    fanOut,
    expectedDeliveries: expected,
    deliveries: latencies.length,
    duplicates: target.receivers.reduce((sum, r) => sum + r.duplicates, 0),
    missing: expected - latencies.length,
    late,
    unexpected,
    badSignatures: target.receivers.reduce((sum, r) => sum + r.badSignatures, 0),
    deliveriesPerSecond: seconds > 0 ? latencies.length / seconds : 0,
    eventToAckMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: percentile(latencies, 100),
    },
    cpuMsPerDelivery: latencies.length > 0 ? (1000 * cpuSeconds) / latencies.length : 0,
    processes,
    ...(record.windowSeconds ? { windows: latencyPerWindow(timed, record.windowSeconds) } : {}),
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

/** One event ready to publish. */
export interface BenchEvent {
  readonly eventId: string;
  readonly txId: string;
  readonly sequence: number;
  readonly message: EventMessage;
}

/**
 * A transaction event as the ledger's relay publishes it: by default the transaction.success (sequence 3)
 * of a transaction of its own; `tx` puts it in a given transaction with a given type and sequence.
 */
export function newEvent(
  target: Pick<FanOutTarget, "runId" | "partnerId">,
  suffix: string,
  tx?: {
    readonly txId: string;
    readonly eventType: "transaction.success" | "transaction.refunded";
    readonly sequence: number;
  },
): BenchEvent {
  const eventId = `evt_bench_${target.runId}_${suffix}`;
  const txId = tx?.txId ?? `tx_bench_${target.runId}_${suffix}`;
  const eventType = tx?.eventType ?? "transaction.success";
  const sequence = tx?.sequence ?? 3;
  const event = create(TransactionEventSchema, {
    eventId,
    eventType,
    occurredAt: timestampFromDate(new Date()),
    txId,
    partnerId: target.partnerId,
    status: eventType === "transaction.success" ? "SUCCESS" : "REFUNDED",
    sequence: BigInt(sequence),
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
    txId,
    sequence,
    message: {
      topic: TRANSACTION_EVENTS_TOPIC,
      key: txId,
      value: toBinary(TransactionEventSchema, event),
      headers: { "event-id": eventId, "event-type": eventType },
    },
  };
}
