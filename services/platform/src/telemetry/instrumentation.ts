/**
 * Loaded before anything else in every distributed process, so `http`, `undici` and `pg` are patched
 * before they are imported:
 *
 *   node --experimental-loader=@opentelemetry/instrumentation/hook.mjs \
 *        --import ./services/platform/dist/telemetry/instrumentation.js gateway/dist/cli.js <role>
 *
 * (the loader hook is what lets the instrumentations patch ES modules). Configuration is the standard
 * OTEL_* variables; service.name defaults to `payouts-<role>`.
 */
import { startTelemetry } from "./start-telemetry.js";

const role = process.argv[2] ?? "";
await startTelemetry({ env: process.env, serviceName: role ? `payouts-${role}` : "payouts" });
