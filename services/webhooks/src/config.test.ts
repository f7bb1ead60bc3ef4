import { ConfigError } from "@payouts/platform/config/env-config";
import { describe, expect, it } from "vitest";
import { loadWebhookConfig } from "./config.js";
import { DEFAULT_RETRY_SCHEDULE_MS } from "./domain/retry-policy.js";

describe("loadWebhookConfig", () => {
  it("allows private receivers by default only in the embedded mode with loopback-only listeners", () => {
    expect(loadWebhookConfig({}, "embedded").allowPrivateUrls).toBe(true);
    for (const host of ["127.0.0.1", "127.0.0.2", "::1", "localhost"]) {
      expect(loadWebhookConfig({ HOST: host }, "embedded").allowPrivateUrls).toBe(true);
    }
    // Listeners others can reach: a partner could make this host probe its own network.
    for (const host of ["0.0.0.0", "::", "10.1.2.3", "gateway.example"]) {
      expect(loadWebhookConfig({ HOST: host }, "embedded").allowPrivateUrls).toBe(false);
    }
    expect(
      loadWebhookConfig({ HOST: "0.0.0.0", WEBHOOK_ALLOW_PRIVATE_URLS: "true" }, "embedded").allowPrivateUrls,
    ).toBe(true);
    expect(loadWebhookConfig({}, "distributed").allowPrivateUrls).toBe(false);
    expect(loadWebhookConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "false" }, "embedded").allowPrivateUrls).toBe(
      false,
    );
    expect(loadWebhookConfig({ WEBHOOK_ALLOW_PRIVATE_URLS: "true" }, "distributed").allowPrivateUrls).toBe(
      true,
    );
  });

  it("has the documented defaults", () => {
    const config = loadWebhookConfig({}, "distributed");
    expect(config).toMatchObject({
      headerBrand: "SERVICE",
      concurrency: 128,
      receiverConcurrency: 4,
      receiverMaxConcurrency: 32,
      partnerConcurrency: 64,
      circuitFailureThreshold: 5,
      circuitProbeIntervalMs: 2_000,
      timeoutMs: 10_000,
      pollIntervalMs: 250,
      eventsTopic: "payouts.transaction-events.v1",
      consumerGroup: "webhook-dispatcher",
    });
    expect(config.sealingKey).toBeUndefined();
    expect(config.retryScheduleMs).toEqual(DEFAULT_RETRY_SCHEDULE_MS);
  });

  it("keeps the most per receiver between its start and the process's slots", () => {
    const small = loadWebhookConfig({ WEBHOOK_CONCURRENCY: "16" }, "distributed");
    expect(small).toMatchObject({ receiverMaxConcurrency: 16, partnerConcurrency: 8 });
    const fixed = loadWebhookConfig(
      {
        WEBHOOK_RECEIVER_CONCURRENCY: "8",
        WEBHOOK_RECEIVER_MAX_CONCURRENCY: "4",
        WEBHOOK_PARTNER_CONCURRENCY: "999",
      },
      "distributed",
    );
    expect(fixed).toMatchObject({
      receiverConcurrency: 8,
      receiverMaxConcurrency: 8,
      partnerConcurrency: 128,
    });
  });

  it("reads overrides", () => {
    const config = loadWebhookConfig(
      {
        WEBHOOK_RETRY_SCHEDULE_MS: "0, 200,200",
        WEBHOOK_HEADER_BRAND: "ACME",
        WEBHOOK_SECRET_KEY: "ab".repeat(32),
      },
      "distributed",
    );
    expect(config.retryScheduleMs).toEqual([0, 200, 200]);
    expect(config.headerBrand).toBe("ACME");
    expect(config.sealingKey?.length).toBe(32);
  });

  it("reports every bad value at once and never echoes the key", () => {
    const env = {
      WEBHOOK_RETRY_SCHEDULE_MS: "0,soon",
      WEBHOOK_HEADER_BRAND: "A.B",
      WEBHOOK_CONCURRENCY: "0",
      WEBHOOK_SECRET_KEY: "short-secret-key",
    };
    try {
      loadWebhookConfig(env, "distributed");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toHaveLength(4);
      expect((error as Error).message).not.toContain("short-secret-key");
    }
  });

  it("refuses to start in production mode without WEBHOOK_SECRET_KEY (no key generated into the database)", () => {
    for (const mode of ["distributed", "embedded"] as const) {
      expect(() => loadWebhookConfig({ NODE_ENV: "production" }, mode)).toThrow(
        /WEBHOOK_SECRET_KEY is required in production/,
      );
    }
    const key = Buffer.alloc(32, 7).toString("hex");
    const config = loadWebhookConfig({ NODE_ENV: "production", WEBHOOK_SECRET_KEY: key }, "distributed");
    expect(config.sealingKey?.equals(Buffer.alloc(32, 7))).toBe(true);
    // Outside production the generated, stored key stays available (embedded sandbox, local runs).
    expect(loadWebhookConfig({ NODE_ENV: "development" }, "distributed").sealingKey).toBeUndefined();
  });

  it("reads WEBHOOK_ALLOWED_PORTS, any port when unset", () => {
    expect(loadWebhookConfig({}, "distributed").allowedPorts).toBeUndefined();
    expect(loadWebhookConfig({ WEBHOOK_ALLOWED_PORTS: "443, 8443" }, "distributed").allowedPorts).toEqual([
      443, 8443,
    ]);
    expect(() => loadWebhookConfig({ WEBHOOK_ALLOWED_PORTS: "443,0" }, "distributed")).toThrow(ConfigError);
    expect(() => loadWebhookConfig({ WEBHOOK_ALLOWED_PORTS: "https" }, "distributed")).toThrow(ConfigError);
  });

  it("reads the circuit breaker's settings and keeps the probe interval small", () => {
    const config = loadWebhookConfig(
      { WEBHOOK_CIRCUIT_FAILURE_THRESHOLD: "3", WEBHOOK_CIRCUIT_PROBE_INTERVAL_MS: "500" },
      "distributed",
    );
    expect(config).toMatchObject({ circuitFailureThreshold: 3, circuitProbeIntervalMs: 500 });
    expect(() => loadWebhookConfig({ WEBHOOK_CIRCUIT_FAILURE_THRESHOLD: "0" }, "distributed")).toThrow(
      ConfigError,
    );
    expect(() => loadWebhookConfig({ WEBHOOK_CIRCUIT_PROBE_INTERVAL_MS: "30000" }, "distributed")).toThrow(
      /WEBHOOK_CIRCUIT_PROBE_INTERVAL_MS.*from 1 to 4000/,
    );
  });
});
