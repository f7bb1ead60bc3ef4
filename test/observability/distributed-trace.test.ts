/**
 * Observability, traces and logs: one payout journey across real transports
 * (HTTP/1.1 to the gateway, gRPC over HTTP/2 to every service, PostgreSQL, Kafka from the ledger's outbox
 * relay to the dispatcher, HTTP to the partner's receiver) is ONE connected trace, and the lookup's log
 * line carries its trace id and neither secrets nor the full account number.
 */

import { context, SpanKind, trace } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestReceiver, type TestReceiver } from "../webhooks/support/test-receiver.js";
import {
  ACCOUNT_NUMBER,
  type JourneyPartner,
  lookup,
  payOut,
  preparePartner,
  WEBHOOK_SECRET,
} from "./support/payout-journey.js";
import { captureLogger, finishedSpans, logLines, rawLogText } from "./support/telemetry-capture.js";
import { startTracedTopology, type TracedTopology } from "./support/traced-topology.js";

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe("one payout, one trace", () => {
  let topology: TracedTopology;
  let receiver: TestReceiver;
  let partner: JourneyPartner;
  let traceId: string;
  let txId: string;

  beforeAll(async () => {
    topology = await startTracedTopology({ logger: captureLogger });
    receiver = await startTestReceiver();
    partner = await preparePartner(topology, receiver.url);
    // The partner traces its own calls: every request carries its traceparent (undici instrumentation).
    const root = trace.getTracer("partner").startSpan("partner pays out", { kind: SpanKind.INTERNAL });
    traceId = root.spanContext().traceId;
    await context.with(trace.setSpan(context.active(), root), async () => {
      txId = await lookup(topology, partner);
      await payOut(topology, partner, txId);
    });
    root.end();
    await receiver.waitFor(1, (r) => r.path === "/partner/webhooks/transactions/success", 30_000);
    await waitFor(() => finishedSpans().some((s) => s.name === "webhook delivery attempt"));
  });
  afterAll(async () => {
    await topology?.close();
    await receiver?.close();
  });

  it("connects the gateway, every service, Kafka and the delivery attempt in the partner's trace", () => {
    const spans = finishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const byId = new Map(spans.map((s) => [idOf(s), s]));
    const named = (predicate: (s: ReadableSpan) => boolean, what: string) => {
      const found = spans.filter(predicate);
      expect(found.length, `${what} in the trace`).toBeGreaterThan(0);
      return found;
    };
    const gatewayRoutes = named(
      (s) => s.kind === SpanKind.SERVER && s.attributes["http.route"] !== undefined,
      "gateway server spans",
    ).map((s) => s.attributes["http.route"]);
    expect(gatewayRoutes).toEqual(
      expect.arrayContaining(["/lookupPaymentCode", "/getQuotation", "/executePayout", "/callbacks/rail"]),
    );
    for (const service of ["LookupService", "PricingService", "LedgerService", "RailService"]) {
      named(
        (s) => s.kind === SpanKind.SERVER && String(s.attributes["rpc.service"]).endsWith(service),
        service,
      );
    }
    named((s) => s.kind === SpanKind.CLIENT && s.attributes["rpc.system"] === "grpc", "gRPC client spans");

    const attempt = named((s) => s.name === "webhook delivery attempt", "the delivery attempt")[0]!;
    expect(attempt.attributes).toMatchObject({
      tx_id: txId,
      outcome: "delivered",
      "http.response.status_code": 200,
    });
    const consumer = byId.get(parentOf(attempt)!)!;
    expect(consumer).toMatchObject({
      kind: SpanKind.CONSUMER,
      name: "payouts.transaction-events.v1 process",
    });
    const producer = byId.get(parentOf(consumer)!)!;
    expect(producer).toMatchObject({
      kind: SpanKind.PRODUCER,
      name: "payouts.transaction-events.v1 publish",
    });
    expect(producer.attributes).toMatchObject({ tx_id: txId, event_type: "transaction.success" });
    const recordResult = byId.get(parentOf(producer)!)!;
    expect(recordResult.attributes).toMatchObject({ "rpc.method": "RecordRailResult", tx_id: txId });

    // Every span of the trace reaches the partner's root span through spans that were all collected.
    const rootId = spans.find((s) => s.name === "partner pays out")!.spanContext().spanId;
    for (const span of spans) {
      let cursor: ReadableSpan | undefined = span;
      for (let hops = 0; cursor && idOf(cursor) !== rootId; hops++) {
        expect(hops, `${span.name} is connected`).toBeLessThan(50);
        cursor = byId.get(parentOf(cursor) ?? "");
        expect(cursor, `parent of a span on the way from ${span.name}`).toBeDefined();
      }
    }
  });

  it("prices getQuotation inside the ledger's call: /getQuotation → QuoteTransaction → CreateQuote", () => {
    const spans = finishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const byId = new Map(spans.map((s) => [idOf(s), s]));
    /** The nearest server span above `span`: the call it was made in. */
    const callOf = (span: ReadableSpan): ReadableSpan | undefined => {
      let cursor = byId.get(parentOf(span) ?? "");
      while (cursor && cursor.kind !== SpanKind.SERVER) cursor = byId.get(parentOf(cursor) ?? "");
      return cursor;
    };
    const createQuotes = spans.filter(
      (s) => s.kind === SpanKind.SERVER && s.attributes["rpc.method"] === "CreateQuote",
    );
    expect(createQuotes).toHaveLength(1);
    const quoteTransaction = callOf(createQuotes[0]!);
    expect(quoteTransaction?.attributes).toMatchObject({ "rpc.method": "QuoteTransaction", tx_id: txId });
    expect(callOf(quoteTransaction!)?.attributes["http.route"]).toBe("/getQuotation");
  });

  it("records database spans inside the service calls, without statement parameters", () => {
    const spans = finishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const serverIds = new Set(spans.filter((s) => s.kind === SpanKind.SERVER).map(idOf));
    const db = spans.filter((s) => s.attributes["db.system.name"] === "postgresql");
    expect(db.length).toBeGreaterThan(0);
    expect(db.some((s) => serverIds.has(parentOf(s) ?? ""))).toBe(true);
    for (const span of db) expect(span.attributes).not.toHaveProperty("db.query.parameter.0");
  });

  it("keeps secrets and account numbers out of span attributes", () => {
    const values = finishedSpans().flatMap((s) => Object.values(s.attributes).map(String));
    for (const value of values) {
      expect(value).not.toContain(ACCOUNT_NUMBER);
      expect(value).not.toContain(partner.clientSecret);
      expect(value).not.toContain(WEBHOOK_SECRET);
    }
  });

  it("logs the lookup with its trace id, masked account number and no credentials", () => {
    const line = logLines.find((l) => l.message === "request" && l.route === "/lookupPaymentCode");
    expect(line, "access log line of the lookup").toBeDefined();
    expect(line!.trace_id).toBe(traceId);
    expect(line!.span_id).toMatch(/^[0-9a-f]{16}$/);
    expect(line!.request_id).toMatch(/\S/);
    expect(line!.partner_id).toBe(partner.partnerId);
    const all = rawLogText.join("\n");
    expect(all).not.toContain(ACCOUNT_NUMBER);
    expect(all).not.toContain(partner.clientSecret);
    expect(all).not.toContain(Buffer.from(`${partner.clientId}:${partner.clientSecret}`).toString("base64"));
    expect(all).not.toContain(WEBHOOK_SECRET);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}
