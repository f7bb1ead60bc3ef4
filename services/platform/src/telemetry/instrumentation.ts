/**
 * Loaded before anything else in every distributed process, so `http`, `undici` and `pg` are patched
 * before the application uses them:
 *
 *   node --import ./services/platform/dist/telemetry/instrumentation.js services/runtime/dist/cli.js <role>
 *
 * Configuration is the standard OTEL_* variables; service.name defaults to `payouts-<role>`.
 *
 * No ESM loader hook (`--experimental-loader=@opentelemetry/instrumentation/hook.mjs`): in Node 20 it
 * runs on a thread of its own and rewrites every ES module the process loads, about 40 MB of RSS per
 * process, for nothing this platform needs. The instrumentations patch what they trace through
 * `require`: `pg` is a CommonJS package (patched when loaded, also from an `import`), undici is observed
 * through diagnostics channels, and `http`/`https` are required below, which patches their exports
 * (`http.Server.prototype.emit`: every incoming request of the gateway's listeners). Named imports of
 * `node:http` in ES modules keep the unpatched `request`: connect-node's calls between services (traced
 * by the Connect interceptors) and the webhook sender (untraced on purpose). The service transports'
 * unary calls construct `ClientRequest` themselves (rpc/http1-unary-client.ts), which no patch wraps.
 */
import { createRequire } from "node:module";
import { startTelemetry } from "./start-telemetry.js";

const role = process.argv[2] ?? "";
await startTelemetry({ env: process.env, serviceName: role ? `payouts-${role}` : "payouts" });
const require = createRequire(import.meta.url);
require("node:http");
require("node:https");
