import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { loadConfig, parse } from "@payouts/platform/config/env-config";
import { DEFAULT_HOST } from "@payouts/platform/config/listen-host";
import { parseSealingKey } from "@payouts/platform/secrets/secret-box";
import { parseRailCallbackSecret } from "@payouts/platform/signing/rail-callback-signature";
import { OPERATOR_ROLES, type OperatorRole } from "./admin/admin-actor.js";
import type { ListenerLimits } from "./http/listener-limits.js";

const spec = {
  port: { env: "PORT", doc: "partner listener port", parse: parse.port, default: 8080 },
  adminPort: {
    env: "ADMIN_PORT",
    doc: "admin listener port (internal only)",
    parse: parse.port,
    default: 8081,
  },
  consoleDir: {
    env: "CONSOLE_DIR",
    doc: "folder of the built operator console, served at /console on the admin listener ('off' = no console)",
    parse: (raw: string) => (raw === "off" ? "" : raw),
    default: fileURLToPath(new URL("../console/dist", import.meta.url)),
  },
  host: {
    env: "HOST",
    doc: "listen address of every listener (loopback by default; the chart and the image set 0.0.0.0)",
    parse: parse.string,
    default: DEFAULT_HOST,
  },
  adminToken: {
    env: "ADMIN_TOKEN",
    doc: "the static machine credential 'admin-token' of the admin API (at least 16 characters; unset = none)",
    parse: adminToken,
  },
  adminTokenPrevious: {
    env: "ADMIN_TOKEN_PREVIOUS",
    doc: "the former ADMIN_TOKEN, still accepted while clients move to the new one (unset once they have)",
    parse: adminToken,
  },
  adminTokenRole: {
    env: "ADMIN_TOKEN_ROLE",
    doc: "role of the ADMIN_TOKEN credential: viewer, operator, finance or admin",
    parse: operatorRole,
    default: "admin" as OperatorRole,
  },
  operatorSecretKey: {
    env: "OPERATOR_SECRET_KEY",
    doc: "32-byte key (hex or base64) sealing operators' TOTP secrets; unset = a key kept in the gateway's database",
    parse: parseSealingKey,
  },
  adminPublicOrigin: {
    env: "ADMIN_PUBLIC_ORIGIN",
    doc: "origin operators reach the admin listener at (e.g. https://ops.example.com); https makes the session cookie Secure",
    parse: origin,
  },
  adminSessionTtlMs: {
    env: "ADMIN_SESSION_TTL_MS",
    doc: "an operator session ends this long after sign-in, however active",
    parse: parse.positiveInt,
    default: 12 * 3_600_000,
  },
  adminSessionIdleMs: {
    env: "ADMIN_SESSION_IDLE_MS",
    doc: "an operator session unused for this long ends",
    parse: parse.positiveInt,
    default: 30 * 60_000,
  },
  adminSessionRotateMs: {
    env: "ADMIN_SESSION_ROTATE_MS",
    doc: "an operator session gets a new id (a new cookie) once it is this old",
    parse: parse.positiveInt,
    default: 15 * 60_000,
  },
  adminLoginFailures: {
    env: "ADMIN_LOGIN_FAILURES",
    doc: "failed operator sign-ins per user name and client address in ADMIN_LOGIN_FAILURE_WINDOW_MS before 429 (0 = no limit)",
    parse: parse.nonNegativeInt,
    default: 10,
  },
  adminLoginFailureWindowMs: {
    env: "ADMIN_LOGIN_FAILURE_WINDOW_MS",
    doc: "window of the operator sign-in failure limit, opened by the first failure",
    parse: parse.nonNegativeInt,
    default: 900_000,
  },
  railCallbackSecret: {
    env: "RAIL_CALLBACK_SECRET",
    doc: "HMAC key the payout rail signs its callbacks with (at least 32 bytes)",
    parse: parseRailCallbackSecret,
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
    doc: "webhooks service base URL",
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
  authKnownGoodTtlMs: {
    env: "AUTH_KNOWN_GOOD_TTL_MS",
    doc: "how long a secret this gateway verified still passes its address's failed-login throttle (never below AUTH_CACHE_TTL_MS)",
    parse: parse.nonNegativeInt,
    default: 86_400_000,
  },
  authNegativeCacheTtlMs: {
    env: "AUTH_NEGATIVE_CACHE_TTL_MS",
    doc: "how long a refused (client id, secret) pair is refused again without running scrypt",
    parse: parse.nonNegativeInt,
    default: 30_000,
  },
  authFailuresPerAddress: {
    env: "AUTH_FAILURES_PER_ADDRESS",
    doc: "failed logins per client address (IPv6: per /64) in AUTH_FAILURE_WINDOW_MS before 429 (0 = no limit)",
    parse: parse.nonNegativeInt,
    default: 20,
  },
  authFailureWindowMs: {
    env: "AUTH_FAILURE_WINDOW_MS",
    doc: "window of the failed-login limit, opened by an address's first failure",
    parse: parse.nonNegativeInt,
    default: 60_000,
  },
  authMaxConcurrentChecks: {
    env: "AUTH_MAX_CONCURRENT_CHECKS",
    doc: "credential checks (scrypt) running at once per gateway process; keep it below UV_THREADPOOL_SIZE (4)",
    parse: parse.positiveInt,
    default: 2,
  },
  authMaxQueuedChecks: {
    env: "AUTH_MAX_QUEUED_CHECKS",
    doc: "credential checks waiting for a slot before new ones are answered 503 with Retry-After",
    parse: parse.nonNegativeInt,
    default: 100,
  },
  trustProxyHops: {
    env: "TRUST_PROXY_HOPS",
    doc: "proxies in front of the partner listener whose X-Forwarded-For is trusted for the client address (0 = none)",
    parse: parse.nonNegativeInt,
    default: 0,
  },
  httpHeadersTimeoutMs: {
    env: "HTTP_HEADERS_TIMEOUT_MS",
    doc: "a request whose headers have not all arrived this long after it began is answered 408 and closed",
    parse: parse.positiveInt,
    default: 10_000,
  },
  httpRequestTimeoutMs: {
    env: "HTTP_REQUEST_TIMEOUT_MS",
    doc: "a request (headers and body) not wholly received this long after it began is answered 408 and closed (at least HTTP_HEADERS_TIMEOUT_MS)",
    parse: parse.positiveInt,
    default: 30_000,
  },
  httpIdleTimeoutMs: {
    env: "HTTP_IDLE_TIMEOUT_MS",
    doc: "a connection on which nothing is sent or received for this long is closed",
    parse: parse.positiveInt,
    default: 60_000,
  },
  httpKeepAliveTimeoutMs: {
    env: "HTTP_KEEP_ALIVE_TIMEOUT_MS",
    doc: "an idle keep-alive connection between requests is closed after this long",
    parse: parse.positiveInt,
    default: 72_000,
  },
  httpMaxConnectionsPerAddress: {
    env: "HTTP_MAX_CONNECTIONS_PER_ADDRESS",
    doc: "open connections per TCP peer (IPv6: per /64) on each listener; further ones are closed at once (0 = no limit; default 128, or 0 when TRUST_PROXY_HOPS > 0, where the peer is the proxy)",
    parse: parse.nonNegativeInt,
  },
  logLevel: { env: "LOG_LEVEL", doc: "pino level", parse: parse.logLevel, default: "info" },
} as const;

/** Connections one client address may hold open per listener when nothing else is said. */
const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 128;

function operatorRole(raw: string): OperatorRole {
  if (!(OPERATOR_ROLES as readonly string[]).includes(raw)) {
    throw new Error(`must be one of ${OPERATOR_ROLES.join(", ")}`);
  }
  return raw as OperatorRole;
}

function origin(raw: string): string {
  const url = new URL(raw);
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("must be an http(s) origin");
  return url.origin;
}

function adminToken(raw: string): string {
  if (raw.length < 16) throw new Error("must be at least 16 characters");
  return raw;
}

/**
 * The base URL a process on this machine reaches a listener bound to `host` at: a wildcard address
 * (0.0.0.0, ::) through loopback, any other address as itself.
 */
export function localBaseUrl(host: string, port: number): string {
  const reachable = host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}

export type GatewayConfig = ReturnType<typeof loadGatewayConfig>;

export function loadGatewayConfig(
  env: Record<string, string | undefined>,
  opts: { embedded?: boolean } = {},
) {
  const cfg = loadConfig(spec, env);
  // In the embedded sandbox, missing secrets are generated per data directory by the caller; in the
  // distributed mode the rail's callback secret is required, and without ADMIN_TOKEN the admin API has no
  // static machine credential (operators sign in; scripts use named machine credentials).
  if (!opts.embedded) {
    loadConfig({ r: { ...spec.railCallbackSecret, required: true } }, env);
  }
  if (cfg.httpRequestTimeoutMs < cfg.httpHeadersTimeoutMs) {
    throw new Error("HTTP_REQUEST_TIMEOUT_MS must be at least HTTP_HEADERS_TIMEOUT_MS");
  }
  return {
    ...cfg,
    httpMaxConnectionsPerAddress:
      cfg.httpMaxConnectionsPerAddress ?? (cfg.trustProxyHops > 0 ? 0 : DEFAULT_MAX_CONNECTIONS_PER_ADDRESS),
    adminToken: cfg.adminToken ?? (opts.embedded ? randomBytes(24).toString("base64url") : undefined),
    railCallbackSecret: cfg.railCallbackSecret ?? randomBytes(32).toString("base64url"),
  };
}

/** The slow-client bounds both listeners apply (http/listener-limits.ts). */
export function listenerLimitsOf(config: GatewayConfig): ListenerLimits {
  return {
    headersTimeoutMs: config.httpHeadersTimeoutMs,
    requestTimeoutMs: config.httpRequestTimeoutMs,
    idleTimeoutMs: config.httpIdleTimeoutMs,
    keepAliveTimeoutMs: config.httpKeepAliveTimeoutMs,
    maxConnectionsPerAddress: config.httpMaxConnectionsPerAddress,
  };
}
