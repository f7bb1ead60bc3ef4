/**
 * NodeSDK with the instrumentations this platform relies on. Loaded lazily so the metrics-only embedded
 * mode does not pay for the SDK's exporters and module hooks.
 */

import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import type { IMetricReader } from "@opentelemetry/sdk-metrics";
import { NodeSDK } from "@opentelemetry/sdk-node";
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  NoopSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
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
    // At least one processor, so spans exist (and trace ids reach logs and peers) even with no exporter.
    spanProcessors: [...exportProcessors(config), ...extraProcessors, new NoopSpanProcessor()],
    // Logs go to stdout as JSON with trace ids (logging/logger.ts); no OTLP log pipeline.
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.test(request.url ?? ""),
      }),
      new UndiciInstrumentation(),
      // Only inside a traced unit of work: the relay's and workers' polling would otherwise make a root
      // span per poll. Statement parameters are never recorded (they carry personal data).
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  return sdk;
}

function exportProcessors(config: TelemetryConfig): SpanProcessor[] {
  const names = config.traceExporters;
  const exporters: SpanExporter[] = [];
  if (names.includes("otlp")) exporters.push(new OTLPTraceExporter());
  if (names.includes("console")) exporters.push(new ConsoleSpanExporter());
  return exporters.map((exporter) => new BatchSpanProcessor(exporter));
}
