import { NoopSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { loadTelemetryConfig } from "./telemetry-config.js";
import { instrumentationsFor, recordsSpans } from "./tracing-sdk.js";

describe("loadTelemetryConfig", () => {
  it.each([
    [
      "nothing configured: traced in process, nothing exported",
      {},
      { tracing: true, traceExporters: [], samplerChosen: false, exportMetrics: false },
    ],
    [
      "an explicit sampler is the operator's choice of what is recorded",
      { OTEL_TRACES_SAMPLER: "parentbased_always_on" },
      { traceExporters: [], samplerChosen: true },
    ],
    [
      "an OTLP endpoint exports traces and metrics",
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" },
      { tracing: true, traceExporters: ["otlp"], exportMetrics: true },
    ],
    [
      "a traces-only endpoint",
      { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" },
      { traceExporters: ["otlp"], exportMetrics: false },
    ],
    [
      "explicit exporters win over the endpoint rule",
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_TRACES_EXPORTER: "console",
        OTEL_METRICS_EXPORTER: "none",
      },
      { traceExporters: ["console"], exportMetrics: false },
    ],
    ["none exports nothing", { OTEL_TRACES_EXPORTER: "none" }, { traceExporters: [] }],
    [
      "a disabled SDK traces and exports nothing",
      { OTEL_SDK_DISABLED: "true", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" },
      { tracing: false, traceExporters: [], exportMetrics: false },
    ],
  ])("%s", (_name, env, expected) => {
    expect(loadTelemetryConfig(env, "payouts-ledger")).toMatchObject(expected);
  });

  it("names the service after the role unless OTEL_SERVICE_NAME says otherwise", () => {
    expect(loadTelemetryConfig({}, "payouts-ledger").serviceName).toBe("payouts-ledger");
    expect(loadTelemetryConfig({ OTEL_SERVICE_NAME: "ledger-eu" }, "payouts-ledger").serviceName).toBe(
      "ledger-eu",
    );
  });

  it("serves metrics on 9464 unless METRICS_PORT says otherwise, and refuses a bad port", () => {
    expect(loadTelemetryConfig({}, "x").metricsPort).toBe(9464);
    expect(loadTelemetryConfig({ METRICS_PORT: "9500" }, "x").metricsPort).toBe(9500);
    expect(() => loadTelemetryConfig({ METRICS_PORT: "http" }, "x")).toThrow(/METRICS_PORT/);
  });

  it("records spans only when something receives them: an exporter, a given processor, a chosen sampler", () => {
    const config = (env: Record<string, string>) => loadTelemetryConfig(env, "x");
    expect(recordsSpans(config({}), [])).toBe(false);
    expect(recordsSpans(config({ OTEL_TRACES_EXPORTER: "none" }), [])).toBe(false);
    expect(recordsSpans(config({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" }), [])).toBe(true);
    expect(recordsSpans(config({ OTEL_TRACES_EXPORTER: "console" }), [])).toBe(true);
    expect(recordsSpans(config({}), [new NoopSpanProcessor()])).toBe(true);
    expect(recordsSpans(config({ OTEL_TRACES_SAMPLER: "always_on" }), [])).toBe(true);
  });

  it("instruments pg only when spans are recorded (its spans are leaves), http and undici always", () => {
    const names = (recording: boolean) => instrumentationsFor(recording).map((i) => i.instrumentationName);
    expect(names(false)).toEqual([
      "@opentelemetry/instrumentation-http",
      "@opentelemetry/instrumentation-undici",
    ]);
    expect(names(true)).toEqual([
      "@opentelemetry/instrumentation-http",
      "@opentelemetry/instrumentation-undici",
      "@opentelemetry/instrumentation-pg",
    ]);
  });
});
