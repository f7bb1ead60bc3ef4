/**
 * What the telemetry of one process does, from the standard OTEL_* variables plus METRICS_PORT. Export
 * is off unless an OTLP endpoint (or an explicit exporter) is configured, so a developer's `npm start`
 * never tries to reach a collector that is not there.
 */
import { loadConfig, parse } from "../config/env-config.js";

const spec = {
  serviceName: { env: "OTEL_SERVICE_NAME", doc: "service.name of every signal", parse: parse.string },
  sdkDisabled: {
    env: "OTEL_SDK_DISABLED",
    doc: "true: no tracing at all (the Prometheus endpoint still serves this process's metrics)",
    parse: parse.boolean,
    default: false,
  },
  otlpEndpoint: { env: "OTEL_EXPORTER_OTLP_ENDPOINT", doc: "OTLP base URL", parse: parse.string },
  otlpTracesEndpoint: {
    env: "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    doc: "OTLP traces URL",
    parse: parse.string,
  },
  otlpMetricsEndpoint: {
    env: "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
    doc: "OTLP metrics URL",
    parse: parse.string,
  },
  tracesExporter: { env: "OTEL_TRACES_EXPORTER", doc: "otlp | console | none", parse: parse.list },
  tracesSampler: {
    env: "OTEL_TRACES_SAMPLER",
    doc: "standard sampler name; when set, it decides even with no exporter",
    parse: parse.string,
  },
  metricsExporter: {
    env: "OTEL_METRICS_EXPORTER",
    doc: "otlp | none (Prometheus is always served)",
    parse: parse.list,
  },
  metricsPort: {
    env: "METRICS_PORT",
    doc: "Prometheus listener of a distributed process (/metrics); 0 picks a free port",
    parse: parse.port,
    default: 9464,
  },
} as const;

export interface TelemetryConfig {
  readonly serviceName: string;
  /** Spans are created and propagated (trace ids reach logs and peers). */
  readonly tracing: boolean;
  /** Where spans go: OTEL_TRACES_EXPORTER (otlp, console), else otlp when an endpoint is set, else nowhere. */
  readonly traceExporters: readonly string[];
  /** OTEL_TRACES_SAMPLER is set: the operator chose what is recorded, exporter or not. */
  readonly samplerChosen: boolean;
  /** Metrics are also pushed over OTLP, besides the Prometheus endpoint. */
  readonly exportMetrics: boolean;
  readonly metricsPort: number;
}

export function loadTelemetryConfig(
  env: Readonly<Record<string, string | undefined>>,
  defaultServiceName: string,
): TelemetryConfig {
  const c = loadConfig(spec, env);
  const chosen = (list: readonly string[] | undefined, endpoint: string | undefined): string[] => {
    if (c.sdkDisabled) return [];
    if (list && list.length > 0) return list.filter((name) => name !== "none");
    return endpoint === undefined ? [] : ["otlp"];
  };
  return {
    serviceName: c.serviceName ?? defaultServiceName,
    tracing: !c.sdkDisabled,
    traceExporters: chosen(c.tracesExporter, c.otlpTracesEndpoint ?? c.otlpEndpoint),
    samplerChosen: c.tracesSampler !== undefined,
    exportMetrics: chosen(c.metricsExporter, c.otlpMetricsEndpoint ?? c.otlpEndpoint).includes("otlp"),
    metricsPort: c.metricsPort,
  };
}
