/**
 * NodeSDK with the instrumentations this platform relies on. Loaded lazily so the metrics-only embedded
 * mode does not pay for the SDK's exporters and module hooks.
 */

import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { Instrumentation } from "@opentelemetry/instrumentation";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import type { IMetricReader } from "@opentelemetry/sdk-metrics";
import { NodeSDK } from "@opentelemetry/sdk-node";
import {
  AlwaysOffSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  NoopSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { isRpcListenerRequest } from "../rpc/rpc-listener.js";
import { isServiceTransportRequest } from "../rpc/service-transport.js";
import type { TelemetryConfig } from "./telemetry-config.js";

/** Probes and scrapes would drown the traces that matter. */
const UNTRACED_PATHS = /^\/(healthz|readyz|metrics)(\?|$)/;

export async function startTracingSdk(
  config: TelemetryConfig,
  metricReaders: IMetricReader[],
  extraProcessors: readonly SpanProcessor[],
): Promise<NodeSDK> {
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    metricReaders,
    // At least one processor, so a tracer provider is registered and every span has valid ids (trace ids
    // reach logs, `traceparent` reaches peers, outbox and delivery rows) even with no exporter.
    spanProcessors: [...exportProcessors(config), ...extraProcessors, new NoopSpanProcessor()],
    // Otherwise OTEL_TRACES_SAMPLER, else parent-based always-on (NodeSDK's default).
    ...(recordsSpans(config, extraProcessors) ? {} : { sampler: new AlwaysOffSampler() }),
    // Logs go to stdout as JSON with trace ids (logging/logger.ts); no OTLP log pipeline.
    logRecordProcessors: [],
    instrumentations: instrumentationsFor(recordsSpans(config, extraProcessors)),
  });
  sdk.start();
  return sdk;
}

/**
 * The http instrumentation always: the gateway's server span carries the incoming trace context (or
 * starts one) whether or not spans are recorded. pg only when spans are recorded: its spans are leaves
 * (nothing propagates through a query), so when none is recorded it would spend ~3 % of a database-heavy
 * process's CPU (a non-recording span, semantic attributes and its `db.client.*` metrics per query) on
 * nothing but those metrics — the undocumented `db_client_*` Prometheus series, which a process without a
 * trace exporter no longer has (the services' own RPC and outbox metrics are unchanged).
 */
export function instrumentationsFor(recording: boolean): Instrumentation[] {
  return [
    new HttpInstrumentation({
      // Calls between services over HTTP/1.1 get their client and server spans from the Connect
      // interceptors (tracing-interceptor.ts), as gRPC calls over HTTP/2 do: no second span per call.
      ignoreIncomingRequestHook: (request) =>
        UNTRACED_PATHS.test(request.url ?? "") || isRpcListenerRequest(request),
      ignoreOutgoingRequestHook: (options) => isServiceTransportRequest(options),
    }),
    new UndiciInstrumentation(),
    // Only inside a traced unit of work: the relay's and workers' polling would otherwise make a root
    // span per poll. Statement parameters are never recorded (they carry personal data).
    ...(recording
      ? [new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false })]
      : []),
  ];
}

/**
 * Recording a span (attributes, events, timing, the span object itself) only pays when something receives
 * it: an exporter, a processor given by the caller (a test's in-memory exporter), or a sampler the operator
 * chose on purpose. Otherwise every span is non-recording: it still gets its own span id under the
 * incoming trace id (or a new trace id), so logs and propagation are unchanged, except that the
 * `traceparent` this process sends has the sampled flag off (it records nothing).
 */
export function recordsSpans(config: TelemetryConfig, extraProcessors: readonly SpanProcessor[]): boolean {
  return config.traceExporters.length > 0 || extraProcessors.length > 0 || config.samplerChosen;
}

function exportProcessors(config: TelemetryConfig): SpanProcessor[] {
  const names = config.traceExporters;
  const exporters: SpanExporter[] = [];
  if (names.includes("otlp")) exporters.push(new OTLPTraceExporter());
  if (names.includes("console")) exporters.push(new ConsoleSpanExporter());
  return exporters.map((exporter) => new BatchSpanProcessor(exporter));
}
