import { randomBytes } from "node:crypto";
import { loadConfig, parse } from "@payouts/platform/config/env-config";

const spec = {
  port: { env: "PORT", doc: "partner listener port", parse: parse.port, default: 8080 },
  adminPort: {
    env: "ADMIN_PORT",
    doc: "admin listener port (internal only)",
    parse: parse.port,
    default: 8081,
  },
  host: { env: "HOST", doc: "listen address", parse: parse.string, default: "0.0.0.0" },
  adminToken: {
    env: "ADMIN_TOKEN",
    doc: "bearer token of the admin API (at least 16 characters)",
    parse: adminToken,
  },
  railCallbackSecret: {
    env: "RAIL_CALLBACK_SECRET",
    doc: "HMAC key the payout rail signs its callbacks with",
    parse: parse.string,
  },
  railCallbackToleranceMs: {
    env: "RAIL_CALLBACK_TOLERANCE_MS",
    doc: "rail callbacks whose X-Rail-Timestamp is further than this from now, either way, are refused as stale",
    parse: parse.nonNegativeInt,
    default: 300_000,
  },
  lookupAddr: {
    env: "LOOKUP_ADDR",
    doc: "lookup service base URL",
    parse: parse.string,
    default: "http://127.0.0.1:50051",
  },
  pricingAddr: {
    env: "PRICING_ADDR",
    doc: "pricing service base URL",
    parse: parse.string,
    default: "http://127.0.0.1:50052",
  },
  ledgerAddr: {
    env: "LEDGER_ADDR",
    doc: "ledger service base URL",
    parse: parse.string,
    default: "http://127.0.0.1:50053",
  },
  webhooksAddr: {
    env: "WEBHOOKS_ADDR",
    doc: "webhook-dispatcher base URL",
    parse: parse.string,
    default: "http://127.0.0.1:50054",
  },
  railAddr: {
    env: "RAIL_ADDR",
    doc: "payout rail base URL",
    parse: parse.string,
    default: "http://127.0.0.1:50055",
  },
  defaultPreviewRateLimitPerMinute: {
    env: "PREVIEW_RATE_LIMIT_PER_MINUTE",
    doc: "previewQuotations limit per app when the app sets none",
    parse: parse.nonNegativeInt,
    default: 600,
  },
  authCacheTtlMs: {
    env: "AUTH_CACHE_TTL_MS",
    doc: "how long a verified credential is remembered (also the revocation delay across replicas)",
    parse: parse.nonNegativeInt,
    default: 30_000,
  },
  logLevel: { env: "LOG_LEVEL", doc: "pino level", parse: parse.logLevel, default: "info" },
} as const;

function adminToken(raw: string): string {
  if (raw.length < 16) throw new Error("must be at least 16 characters");
  return raw;
}

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(
  env: Record<string, string | undefined>,
  opts: { embedded?: boolean } = {},
) {
  const cfg = loadConfig(spec, env);
  // In the embedded sandbox, missing secrets are generated per data directory by the caller; in the
  // distributed mode they are required.
  if (!opts.embedded) {
    loadConfig(
      { a: { ...spec.adminToken, required: true }, r: { ...spec.railCallbackSecret, required: true } },
      env,
    );
  }
  return {
    ...cfg,
    adminToken: cfg.adminToken ?? randomBytes(24).toString("base64url"),
    railCallbackSecret: cfg.railCallbackSecret ?? randomBytes(32).toString("base64url"),
  };
}
