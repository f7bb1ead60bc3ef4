/**
 * Production mode (NODE_ENV=production, as the image and the chart run every process): a process missing
 * a credential it needs does not start. Runs the built CLI as production does.
 */
import { spawnSync } from "node:child_process";
import { generateServiceCredentials } from "@payouts/platform/rpc/service-credentials";
import { beforeAll, describe, expect, it } from "vitest";
import { CLI, ensureBuilt, REPO_ROOT } from "../e2e/support/distributed-topology.js";

const credentials = generateServiceCredentials();
const base = {
  PATH: process.env.PATH ?? "",
  NODE_ENV: "production",
  // Never contacted: every refusal below happens before the first query.
  DATABASE_URL: "postgres://nobody@127.0.0.1:1/none",
  OTEL_SDK_DISABLED: "true",
  METRICS_PORT: "0",
  PORT: "0",
  LOG_LEVEL: "info",
};

function run(role: string, env: Record<string, string>) {
  const result = spawnSync(process.execPath, [CLI, role], {
    cwd: REPO_ROOT,
    env: { ...base, ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(() => ensureBuilt(), 300_000);

describe("production mode refuses to start without its credentials", () => {
  it.each(["lookup", "pricing", "ledger", "webhooks", "sandbox-rail"])(
    "%s without SERVICE_CALLER_KEYS",
    (role) => {
      const result = run(role, {
        WEBHOOK_SECRET_KEY: "a".repeat(64),
        SERVICE_PRIVATE_KEYS: credentials.processKeys.ledger,
      });
      expect(result.status).toBe(2);
      expect(result.output).toContain("SERVICE_CALLER_KEYS is required in production");
    },
  );

  it("the ledger without its own private key", () => {
    const result = run("ledger", { SERVICE_CALLER_KEYS: credentials.callerKeys });
    expect(result.status).toBe(2);
    expect(result.output).toContain("SERVICE_PRIVATE_KEYS is required in production with a key for ledger");
  });

  it("the gateway without its three private keys, and never prints a key it was given", () => {
    const result = run("gateway", {
      ADMIN_TOKEN: "production-admin-token-0123456789",
      RAIL_CALLBACK_SECRET: "production-rail-callback-secret-0123456789",
      SERVICE_PRIVATE_KEYS: `gateway:${credentials.privateKeys.gateway}`,
    });
    expect(result.status).toBe(2);
    expect(result.output).toContain("with a key for gateway-admin, gateway-rail");
    expect(result.output).not.toContain(credentials.privateKeys.gateway);
  });

  it("the webhooks service without WEBHOOK_SECRET_KEY (no sealing key generated into the database)", () => {
    const result = run("webhooks", { SERVICE_CALLER_KEYS: credentials.callerKeys });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("WEBHOOK_SECRET_KEY is required in production");
  });

  it("the former role name webhook-dispatcher runs the webhooks service, with a deprecation warning", () => {
    const result = run("webhook-dispatcher", { SERVICE_CALLER_KEYS: credentials.callerKeys });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain(
      'role \\"webhook-dispatcher\\" is deprecated: run \\"webhooks\\" instead',
    );
    expect(result.output).toContain("WEBHOOK_SECRET_KEY is required in production");
  });

  it("the ledger without EVENT_SIGNING_KEY, the key its events are signed with", () => {
    const result = run("ledger", {
      SERVICE_CALLER_KEYS: credentials.callerKeys,
      SERVICE_PRIVATE_KEYS: credentials.processKeys.ledger,
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("EVENT_SIGNING_KEY is required in production");
  });

  it("the ledger with a malformed EVENT_SIGNING_KEY, without printing it", () => {
    const result = run("ledger", {
      SERVICE_CALLER_KEYS: credentials.callerKeys,
      SERVICE_PRIVATE_KEYS: credentials.processKeys.ledger,
      EVENT_SIGNING_KEY: "not-a-key-c2VjcmV0LXZhbHVl",
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("expected an Ed25519 private key");
    expect(result.output).not.toContain("not-a-key-c2VjcmV0LXZhbHVl");
  });

  it("the webhooks service without EVENT_VERIFY_KEYS, the keys events are verified with", () => {
    const result = run("webhooks", {
      SERVICE_CALLER_KEYS: credentials.callerKeys,
      WEBHOOK_SECRET_KEY: "a".repeat(64),
    });
    expect(result.status).not.toBe(0);
    expect(result.output).toContain("EVENT_VERIFY_KEYS is required in production");
  });
});
