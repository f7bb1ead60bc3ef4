import type { SecretHasher } from "@payouts/gateway/internal/auth/secret-hash";
import { createLogger } from "@payouts/platform/logging/logger";
import {
  type EmbeddedHandle,
  type EmbeddedInstrumentation,
  startEmbedded,
} from "@payouts/runtime/embedded-runtime";
import { type ApiResponse, callJson } from "./call-json.js";
import { freePort } from "./free-port.js";
import { createTestDatabase, kafkaBrokers } from "./infra.js";

export const ADMIN_TOKEN = "test-admin-token-0123456789";

export { freePort } from "./free-port.js";

export interface TestPlatform {
  readonly runtime: EmbeddedHandle;
  readonly baseUrl: string;
  readonly adminUrl: string;
  readonly databaseUrl: string;
  /** Admin API call with the bearer token; returns status, headers and parsed JSON (or text). */
  admin(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
  /** Partner API call with Basic credentials. */
  partner(
    creds: Credentials | undefined,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<ApiResponse>;
  /** A new partner (optionally with pricing fields) and one app. */
  createPartner(fields?: Record<string, unknown>): Promise<{ partnerId: string } & Credentials>;
  close(): Promise<void>;
}

export interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export type { ApiResponse };

/**
 * The whole platform on real PostgreSQL (a fresh database per call): every service module behind the
 * real gateway on free ports. `kafka: true` routes events through the real broker too.
 */
export async function startTestPlatform(
  options: {
    kafka?: boolean;
    env?: Record<string, string>;
    secretHasher?: SecretHasher;
    /** Counting decorators and interceptors (test/perf's cost anatomy). */
    instrument?: EmbeddedInstrumentation;
    /** The PostgreSQL server to create the database on, for scripts outside vitest (default: global-setup's). */
    databaseServerUrl?: string;
  } = {},
): Promise<TestPlatform> {
  const database = await createTestDatabase(options.databaseServerUrl);
  const port = await freePort();
  const adminPort = await freePort();
  const env: Record<string, string> = {
    DATABASE_URL: database.url,
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    HOST: "127.0.0.1",
    ADMIN_TOKEN,
    RAIL_CALLBACK_SECRET: "test-rail-callback-secret-of-32-bytes",
    SANDBOX_AUTO_SETTLE_MS: "0",
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    LOG_LEVEL: "silent",
    // Every test client calls from 127.0.0.1, and many tests send wrong credentials on purpose: the
    // failed-login throttle is off here and switched on by the tests about it (options.env).
    AUTH_FAILURES_PER_ADDRESS: "0",
    // Likewise the cap on connections per address: many tests open more than it allows at once.
    HTTP_MAX_CONNECTIONS_PER_ADDRESS: "0",
    // Four-eyes approvals need two operators, which most tests do not have: off here, switched on by the
    // tests about them.
    FOUR_EYES_APPROVALS: "false",
    ...(options.kafka ? { KAFKA_BROKERS: kafkaBrokers().join(",") } : {}),
    ...options.env,
  };
  const runtime = await startEmbedded({
    env,
    logger: createLogger({ service: "test", level: env.LOG_LEVEL ?? "silent" }),
    ...(options.secretHasher ? { secretHasher: options.secretHasher } : {}),
    ...(options.instrument ? { instrument: options.instrument } : {}),
  });
  const baseUrl = `http://${env.HOST}:${runtime.gateway.partnerPort}`;
  const adminUrl = `http://${env.HOST}:${runtime.gateway.adminPort}`;

  const platform: TestPlatform = {
    runtime,
    baseUrl,
    adminUrl,
    databaseUrl: database.url,
    admin: (method, path, body, headers = {}) =>
      callJson(`${adminUrl}${path}`, method, { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers }, body),
    partner: (creds, method, path, body, headers = {}) =>
      callJson(
        `${baseUrl}${path}`,
        method,
        {
          ...(creds
            ? {
                authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString("base64")}`,
              }
            : {}),
          ...headers,
        },
        body,
      ),
    async createPartner(fields = {}) {
      const partner = await platform.admin("POST", "/admin/partners", { name: "Test partner", ...fields });
      if (partner.status !== 201)
        throw new Error(`partner creation failed: ${partner.status} ${partner.text}`);
      const app = await platform.admin("POST", `/admin/partners/${partner.json.partner_id}/apps`, {});
      if (app.status !== 201) throw new Error(`app creation failed: ${app.status} ${app.text}`);
      return {
        partnerId: partner.json.partner_id,
        clientId: app.json.client_id,
        clientSecret: app.json.client_secret,
      };
    },
    async close() {
      await runtime.close();
      await database.drop();
    },
  };
  return platform;
}
