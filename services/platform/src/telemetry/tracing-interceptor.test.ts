import { createClient, createRouterTransport } from "@connectrpc/connect";
import { propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { Health } from "@payouts/proto/grpc/health/v1/health_pb";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HealthState } from "../rpc/health-service.js";
import { createTracingInterceptor } from "./tracing-interceptor.js";

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

function client() {
  const health = new HealthState(["payouts.ledger.v1.LedgerService"]);
  const transport = createRouterTransport((router) => health.register(router), {
    router: { interceptors: [createTracingInterceptor("server")] },
    transport: { interceptors: [createTracingInterceptor("client")] },
  });
  return createClient(Health, transport);
}

const spanOf = (kind: SpanKind, method: string) =>
  exporter.getFinishedSpans().find((s) => s.kind === kind && s.attributes["rpc.method"] === method);

describe("createTracingInterceptor", () => {
  beforeAll(() => {
    trace.setGlobalTracerProvider(provider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  });
  afterAll(async () => {
    trace.disable();
    propagation.disable();
    await provider.shutdown();
  });
  beforeEach(() => exporter.reset());

  it("makes a client span and a server span continuing it through the request metadata", async () => {
    await client().check({ service: "" });
    const clientSpan = spanOf(SpanKind.CLIENT, "Check")!;
    const serverSpan = spanOf(SpanKind.SERVER, "Check")!;
    expect(clientSpan.name).toBe("grpc.health.v1.Health/Check");
    expect(serverSpan.spanContext().traceId).toBe(clientSpan.spanContext().traceId);
    expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
    for (const span of [clientSpan, serverSpan]) {
      expect(span.attributes).toMatchObject({
        "rpc.system": "grpc",
        "rpc.grpc.status_code": 0,
        outcome: "ok",
      });
      expect(span.status.code).toBe(SpanStatusCode.UNSET);
    }
  });

  it("marks a refusal as an error on the client only, with its outcome on both", async () => {
    await expect(client().check({ service: "nope" })).rejects.toThrow(/unknown service/);
    const clientSpan = spanOf(SpanKind.CLIENT, "Check")!;
    const serverSpan = spanOf(SpanKind.SERVER, "Check")!;
    expect(serverSpan.attributes).toMatchObject({ "rpc.grpc.status_code": 5, outcome: "not_found" });
    expect(serverSpan.status.code).toBe(SpanStatusCode.UNSET);
    expect(clientSpan.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("ends the span of a streaming call when its stream ends", async () => {
    const answers = [];
    for await (const answer of client().watch({ service: "" })) answers.push(answer);
    expect(answers).toHaveLength(1);
    const serverSpan = spanOf(SpanKind.SERVER, "Watch")!;
    const clientSpan = spanOf(SpanKind.CLIENT, "Watch")!;
    expect(serverSpan.attributes.outcome).toBe("ok");
    expect(serverSpan.parentSpanContext?.spanId).toBe(clientSpan.spanContext().spanId);
  });
});
