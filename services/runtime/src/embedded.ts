import { existsSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { localBaseUrl } from "@payouts/gateway/edge";
import { onShutdown } from "@payouts/platform/lifecycle";
import { createLogger } from "@payouts/platform/logging/logger";
import { startEmbedded } from "./embedded-runtime.js";
import {
  loadOrCreateSandboxState,
  SANDBOX_OPERATOR,
  type SandboxSeeded,
  seedSandbox,
} from "./sandbox-seed.js";

/**
 * `npm start`: the whole platform in one process with a ready sandbox partner. Data lives in
 * ./.data (PGlite) unless DATABASE_URL is set; events use the in-process bus unless KAFKA_BROKERS is.
 * Listens on 127.0.0.1 unless HOST is set (HOST=0.0.0.0 to reach it from other machines).
 */
async function main(): Promise<void> {
  const dataRoot = resolve(process.env.PAYOUTS_DATA_DIR ?? ".data");
  mkdirSync(dataRoot, { recursive: true });
  const state = loadOrCreateSandboxState(join(dataRoot, "sandbox.json"), process.env);
  const env = {
    ...process.env,
    ADMIN_TOKEN: state.admin_token,
    RAIL_CALLBACK_SECRET: state.rail_callback_secret,
    SANDBOX_AUTO_SETTLE_MS: process.env.SANDBOX_AUTO_SETTLE_MS ?? "3000",
  };
  const logger = createLogger({ service: "payouts", level: process.env.LOG_LEVEL ?? "warn" });
  const runtime = await startEmbedded({ env, logger, dataDir: join(dataRoot, "pg") });
  const seeded = await seedSandbox(runtime.gateway.adminDeps, state);
  onShutdown(logger, () => runtime.close());
  const { host, consoleDir } = runtime.gateway.deps.config;
  const admin = localBaseUrl(host, runtime.gateway.adminPort);
  printWelcome(
    state,
    localBaseUrl(host, runtime.gateway.partnerPort),
    admin,
    consoleLine(admin, consoleDir),
    process.env.DATABASE_URL ? "PostgreSQL" : dataRoot,
    seeded,
  );
}

/** The console's URL, or why there is none (`npm start` builds it first: gateway/console/scripts/ensure-built.ts). */
function consoleLine(admin: string, consoleDir: string): string {
  if (consoleDir === "") return "off (CONSOLE_DIR=off)";
  if (!existsSync(join(consoleDir, "index.html"))) return "not built (npm run build -w @payouts/console)";
  return `${admin}/console/`;
}

function printWelcome(
  state: { client_id: string; client_secret: string; admin_token: string; partner_id: string },
  base: string,
  admin: string,
  consoleUrl: string,
  storage: string,
  seeded: SandboxSeeded,
): void {
  const auth = `${state.client_id}:${state.client_secret}`;
  const lines = [
    "",
    "Payouts sandbox is running (embedded mode: every service in this process).",
    `  data:           ${storage}`,
    `  partner API:    ${base}   (OpenAPI: ${base}/openapi.json)`,
    `  admin API:      ${admin}`,
    `  console:        ${consoleUrl}`,
    `  partner_id:     ${state.partner_id}`,
    `  client_id:      ${state.client_id}`,
    `  client_secret:  ${state.client_secret}`,
    `  admin token:    ${state.admin_token}   (machine credential "admin-token", role admin)`,
    ...signInLines(seeded),
    "",
    "Try it:",
    `  curl -s -u '${auth}' ${base}/balance`,
    `  curl -s -u '${auth}' -H 'Content-Type: application/json' -d '{"amount": 100, "currency": "USD"}' ${base}/previewQuotations`,
    `  curl -s -u '${auth}' -H 'Content-Type: application/json' -d '{"name_first": "Ana", "name_last": "Silva", "country": "BR"}' ${base}/customers`,
    `  curl -s -u '${auth}' -H 'Content-Type: application/json' -d '{"customer_id": "<customer_id>", "country_code": "BR", "payment_method": "payment_key", "payment_destination": "52998224725", "payment_destination_code": "PIX"}' ${base}/lookupPaymentCode`,
    `  curl -s -H 'Authorization: Bearer ${state.admin_token}' ${admin}/admin/partners/${state.partner_id}`,
    "",
    "Press Ctrl+C to stop; data is kept for the next start.",
    "",
  ];
  process.stdout.write(lines.join("\n"));
}

/** How to sign in to the console: the first operator's one-time password and TOTP, on the start that made it. */
function signInLines(seeded: SandboxSeeded): string[] {
  const first = seeded.firstOperator;
  if (!first) {
    return [
      `  console sign-in: operator "${SANDBOX_OPERATOR}" (password and TOTP shown on the first start; more: npx payouts operators add)`,
    ];
  }
  return [
    `  console sign-in: user "${first.operator.username}", password ${first.password}   (shown once: keep it)`,
    `                   TOTP: add this to an authenticator app: ${first.totpUri}`,
  ];
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
