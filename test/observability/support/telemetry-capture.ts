/**
 * Import this first in an observability test: it starts the process's telemetry before anything loads
 * `http`, `undici` or `pg` (the job the --import'ed instrumentation module does in production), with an
 * in-memory span exporter, and collects log lines.
 */
import { Writable } from "node:stream";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createLogger, type Logger } from "@payouts/platform/logging/logger";
import { startTelemetry, type Telemetry } from "@payouts/platform/telemetry/start-telemetry";

// One exporter per process, even if several test files share it: telemetry starts once per process.
const EXPORTER = Symbol.for("payouts.test.span-exporter");
const holder = globalThis as { [EXPORTER]?: InMemorySpanExporter };
holder[EXPORTER] ??= new InMemorySpanExporter();
export const spanExporter: InMemorySpanExporter = holder[EXPORTER];

export const telemetry: Telemetry = await startTelemetry({
  env: { OTEL_SERVICE_NAME: "payouts-observability-test", METRICS_PORT: "0" },
  serviceName: "payouts-observability-test",
  spanProcessors: [new SimpleSpanProcessor(spanExporter)],
});

export function finishedSpans(): ReadableSpan[] {
  return spanExporter.getFinishedSpans();
}

/** Every JSON line logged through `captureLogger` loggers, parsed. */
export const logLines: Array<Record<string, unknown>> = [];
export const rawLogText: string[] = [];

export function captureLogger(service: string): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n")) {
        if (line.trim() === "") continue;
        rawLogText.push(line);
        logLines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return createLogger({ service, level: "debug", destination: sink });
}
