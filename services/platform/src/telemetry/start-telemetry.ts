/**
 * The one place the OpenTelemetry SDK is set up. Everything else uses `@opentelemetry/api` only.
 *
 * A distributed process loads `instrumentation.ts` before its own code (see services/platform/README.md),
 * which calls `startTelemetry` with tracing on: spans are created and propagated whenever the SDK is not
 * disabled, and exported only when OTLP (or another exporter) is configured. The embedded `npm start`
 * calls it with tracing off: metrics only, for the admin listener's /metrics.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { metrics } from "@opentelemetry/api";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { PrometheusExporter } from "@opentelemetry/exporter-prometheus";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { type IMetricReader, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import type { SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { ATTR_SERVICE_NAME } from "@opentelemetry/semantic-conventions";
import { loadTelemetryConfig, type TelemetryConfig } from "./telemetry-config.js";

export interface Telemetry {
  readonly serviceName: string;
  /** Spans are recorded and propagated in this process. */
  readonly tracing: boolean;
  /** METRICS_PORT: where a distributed process serves /metrics. */
  readonly metricsPort: number;
  /** Answers a Prometheus scrape with every metric of this process. */
  serveMetrics(request: IncomingMessage, response: ServerResponse): void;
  /** Flushes and stops exporters; spans ended afterwards are dropped. */
  shutdown(): Promise<void>;
}

export interface StartTelemetryOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** service.name unless OTEL_SERVICE_NAME says otherwise. */
  readonly serviceName: string;
  /** false: metrics only. Default true. */
  readonly tracing?: boolean;
  /** Extra span processors (a test's in-memory exporter); they receive every span. */
  readonly spanProcessors?: readonly SpanProcessor[];
}

// The --import entry can be a different module instance from the application's copy of this file (dist
// vs source), so the handle lives on globalThis, like the OpenTelemetry API's own registrations.
const HANDLE = Symbol.for("payouts.telemetry");
type Holder = { [HANDLE]?: Promise<Telemetry> };

/** The telemetry this process started, if any. */
export function activeTelemetry(): Promise<Telemetry> | undefined {
  return (globalThis as Holder)[HANDLE];
}

/** Starts telemetry once per process; later calls get the first call's handle. */
export function startTelemetry(options: StartTelemetryOptions): Promise<Telemetry> {
  const holder = globalThis as Holder;
  holder[HANDLE] ??= create(options);
  return holder[HANDLE];
}

/** Flushes whatever telemetry runs (spans of the last requests) before the process exits. */
export async function shutdownTelemetry(): Promise<void> {
  const telemetry = activeTelemetry();
  if (telemetry) await (await telemetry).shutdown().catch(() => {});
}

async function create(options: StartTelemetryOptions): Promise<Telemetry> {
  const config = loadTelemetryConfig(options.env, options.serviceName);
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const readers: IMetricReader[] = [prometheus];
  if (config.exportMetrics) {
    readers.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter() }));
  }
  const serveMetrics = (request: IncomingMessage, response: ServerResponse) =>
    prometheus.getMetricsRequestHandler(request, response);
  const tracing = (options.tracing ?? true) && config.tracing;
  if (!tracing) {
    const provider = new MeterProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
      readers,
    });
    metrics.setGlobalMeterProvider(provider);
    return { ...facts(config, tracing), serveMetrics, shutdown: () => provider.shutdown() };
  }
  const { startTracingSdk } = await import("./tracing-sdk.js");
  const sdk = await startTracingSdk(config, readers, options.spanProcessors ?? []);
  return { ...facts(config, tracing), serveMetrics, shutdown: () => sdk.shutdown() };
}

function facts(config: TelemetryConfig, tracing: boolean) {
  return { serviceName: config.serviceName, tracing, metricsPort: config.metricsPort };
}

export type { TelemetryConfig };
