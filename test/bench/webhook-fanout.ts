import { createServer, type Server } from "node:http";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { EventBus } from "@payouts/platform/events/event-bus";
import { TRANSACTION_EVENTS_TOPIC } from "@payouts/platform/events/event-bus";
import { TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import type { WebhookPhaseResult } from "./bench-results.js";
import { percentile } from "./percentile.js";
import type { ProcessMonitor } from "./process-stats.js";

/**
 * A local webhook receiver: answers every POST with 200 `{}` at once and notes when each
 * (event, receiver path) arrived. The event id comes from the dispatcher's `X-<brand>-Event-Id` header.
 */
export class TimingReceiver {
  private server: Server | undefined;
  /** event id → receiver path → arrival time (performance.now). */
  private readonly arrivals = new Map<string, Map<string, number>>();
  private arrivalCount = 0;
  private duplicateCount = 0;

  async start(): Promise<number> {
    this.server = createServer((request, response) => {
      const eventId = eventIdOf(request.headers);
      const byPath = this.arrivals.get(eventId) ?? new Map<string, number>();
      this.arrivals.set(eventId, byPath);
      if (byPath.has(request.url ?? "")) this.duplicateCount++;
      else {
        byPath.set(request.url ?? "", performance.now());
        this.arrivalCount++;
      }
      request.resume();
      request.on("end", () => response.writeHead(200, { "content-type": "application/json" }).end("{}"));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    const address = this.server.address();
    return typeof address === "object" && address ? address.port : 0;
  }

  /** Arrival times (performance.now) of the deliveries of one event. */
  arrivalsOf(eventId: string): number[] {
    return [...(this.arrivals.get(eventId)?.values() ?? [])];
  }

  get deliveries(): number {
    return this.arrivalCount;
  }

  get duplicates(): number {
    return this.duplicateCount;
  }

  reset(): void {
    this.arrivals.clear();
    this.arrivalCount = 0;
    this.duplicateCount = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

function eventIdOf(headers: Record<string, string | string[] | undefined>): string {
  for (const [name, value] of Object.entries(headers)) {
    if (name.endsWith("-event-id") && typeof value === "string") return value;
  }
  return "unknown";
}

export interface FanOutTarget {
  readonly bus: EventBus;
  readonly partnerId: string;
  readonly receiver: TimingReceiver;
  readonly fanOut: number;
  readonly monitor: ProcessMonitor;
  /** How long to wait for the last deliveries after the last event was published. */
  readonly drainTimeoutMs: number;
  readonly runId: string;
}

/** `count` events published as fast as the producer takes them: the dispatcher's delivery capacity. */
export async function runBurst(target: FanOutTarget, count: number): Promise<WebhookPhaseResult> {
  const published = new Map<string, number>();
  target.receiver.reset();
  target.monitor.begin();
  const events = Array.from({ length: count }, (_, i) => newEvent(target, `b${i}`));
  for (let i = 0; i < events.length; i += 200) {
    const batch = events.slice(i, i + 200);
    const at = performance.now();
    for (const e of batch) published.set(e.eventId, at);
    await target.bus.publish(batch.map((e) => e.message));
  }
  await drain(target, count * target.fanOut);
  return summarise(target, "burst", 0, published);
}

/** `rate` events per second for `seconds`: event-to-2xx latency at a steady offered load. */
export async function runPaced(
  target: FanOutTarget,
  rate: number,
  seconds: number,
): Promise<WebhookPhaseResult> {
  const published = new Map<string, number>();
  const total = rate * seconds;
  target.receiver.reset();
  target.monitor.begin();
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
  await drain(target, total * target.fanOut);
  return summarise(target, "paced", rate, published);
}

async function drain(target: FanOutTarget, expected: number): Promise<void> {
  const deadline = performance.now() + target.drainTimeoutMs;
  while (target.receiver.deliveries < expected && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function summarise(
  target: FanOutTarget,
  phase: "burst" | "paced",
  rate: number,
  published: ReadonlyMap<string, number>,
): WebhookPhaseResult {
  const processes = target.monitor.end();
  const latencies: number[] = [];
  let first = Number.POSITIVE_INFINITY;
  let last = 0;
  for (const [eventId, at] of published) {
    first = Math.min(first, at);
    for (const arrived of target.receiver.arrivalsOf(eventId)) {
      latencies.push(arrived - at);
      last = Math.max(last, arrived);
    }
  }
  const expected = published.size * target.fanOut;
  const seconds = (last - first) / 1000;
  return {
    phase,
    events: published.size,
    offeredRate: rate,
    fanOut: target.fanOut,
    expectedDeliveries: expected,
    deliveries: latencies.length,
    duplicates: target.receiver.duplicates,
    missing: expected - latencies.length,
    deliveriesPerSecond: seconds > 0 ? latencies.length / seconds : 0,
    eventToAckMs: {
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: percentile(latencies, 100),
    },
    processes,
  };
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
