/**
 * A process with no exporter configured (the default): spans are not recorded, but every span still has
 * valid ids, so trace context flows through gRPC metadata, into what is stored for later (outbox and
 * delivery rows) and into log lines. Starts the real SDK the way `instrumentation.ts` does.
 */
import { Writable } from "node:stream";
import { createClient, createRouterTransport, type Interceptor } from "@connectrpc/connect";
import { context, isSpanContextValid, type Span, trace } from "@opentelemetry/api";
import { Health } from "@payouts/proto/grpc/health/v1/health_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../logging/logger.js";
import { HealthState } from "../rpc/health-service.js";
import { startTelemetry, type Telemetry } from "./start-telemetry.js";
import { contextFromTraceparent, currentTraceparent } from "./trace-context.js";
import { createTracingInterceptor } from "./tracing-interceptor.js";

const PARTNER_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARTNER_PARENT = "00f067aa0ba902b7";
const PARTNER_TRACEPARENT = `00-${PARTNER_TRACE}-${PARTNER_PARENT}-01`;

interface Seen {
  clientSpan?: Span | undefined;
  serverSpan?: Span | undefined;
  /** Asked while the spans are open (an ended span never records). */
  recording?: boolean[];
  header?: string | null;
  stored?: string | undefined;
}
let seen: Seen = {};
const logged: Array<Record<string, unknown>> = [];
const logger = createLogger({
  service: "payouts-test",
  destination: new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(JSON.parse(chunk.toString("utf8")) as Record<string, unknown>);
      done();
    },
  }),
});

// Inside the tracing interceptors: what the handler and the transport see.
const onServer: Interceptor = (next) => (req) => {
  seen.serverSpan = trace.getActiveSpan();
  seen.recording = [...(seen.recording ?? []), seen.serverSpan!.isRecording()];
  seen.header = req.header.get("traceparent");
  seen.stored = currentTraceparent();
  logger.info("handled");
  return next(req);
};
const onClient: Interceptor = (next) => (req) => {
  seen.clientSpan = trace.getActiveSpan();
  seen.recording = [...(seen.recording ?? []), seen.clientSpan!.isRecording()];
  return next(req);
};

function client() {
  const health = new HealthState([]);
  const transport = createRouterTransport((router) => health.register(router), {
    router: { interceptors: [createTracingInterceptor("server"), onServer] },
    transport: { interceptors: [createTracingInterceptor("client"), onClient] },
  });
  return createClient(Health, transport);
}

describe("tracing with no exporter configured", () => {
  let telemetry: Telemetry;
  beforeAll(async () => {
    telemetry = await startTelemetry({ env: { METRICS_PORT: "0" }, serviceName: "payouts-test" });
  });
  afterAll(() => telemetry.shutdown());
  beforeEach(() => {
    seen = {};
    logged.length = 0;
  });

  it("records no span, yet continues an incoming trace through gRPC, storage and logs", async () => {
    expect(telemetry.tracing).toBe(true);
    await context.with(contextFromTraceparent(PARTNER_TRACEPARENT), () => client().check({ service: "" }));

    const clientSpan = seen.clientSpan!.spanContext();
    const serverSpan = seen.serverSpan!.spanContext();
    expect(seen.recording).toEqual([false, false]);
    // Own span ids under the partner's trace id: one trace, as if the spans had been recorded.
    expect(clientSpan.traceId).toBe(PARTNER_TRACE);
    expect(serverSpan.traceId).toBe(PARTNER_TRACE);
    expect(isSpanContextValid(clientSpan) && isSpanContextValid(serverSpan)).toBe(true);
    expect(new Set([PARTNER_PARENT, clientSpan.spanId, serverSpan.spanId]).size).toBe(3);
    // The metadata carries the client span; what a handler stores (outbox, deliveries) is its own span.
    expect(seen.header).toBe(`00-${PARTNER_TRACE}-${clientSpan.spanId}-00`);
    expect(seen.stored).toBe(`00-${PARTNER_TRACE}-${serverSpan.spanId}-00`);
    expect(logged).toEqual([
      expect.objectContaining({ message: "handled", trace_id: PARTNER_TRACE, span_id: serverSpan.spanId }),
    ]);
  });

  it("starts a trace of its own when the request carries none, so logs still have trace ids", async () => {
    await client().check({ service: "" });
    const serverSpan = seen.serverSpan!.spanContext();
    expect(seen.recording).toEqual([false, false]);
    expect(isSpanContextValid(serverSpan)).toBe(true);
    expect(serverSpan.traceId).toBe(seen.clientSpan!.spanContext().traceId);
    expect(seen.header).toMatch(new RegExp(`^00-${serverSpan.traceId}-[0-9a-f]{16}-00$`));
    expect(logged[0]).toMatchObject({ trace_id: serverSpan.traceId, span_id: serverSpan.spanId });
  });
});
