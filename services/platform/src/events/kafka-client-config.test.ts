import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../config/env-config.js";
import { DEFAULT_KAFKA_TIMING, loadKafkaSecurity, loadKafkaTiming } from "./kafka-client-config.js";

const PEM = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";

describe("Kafka client security from the environment", () => {
  it("is plaintext and anonymous by default", () => {
    expect(loadKafkaSecurity({})).toEqual({});
  });

  it("maps SCRAM credentials and TLS to kafkajs options", () => {
    const security = loadKafkaSecurity({
      KAFKA_TLS: "true",
      KAFKA_SASL_MECHANISM: "SCRAM-SHA-512",
      KAFKA_SASL_USERNAME: "ledger",
      KAFKA_SASL_PASSWORD: "pw",
    });
    expect(security).toEqual({
      ssl: true,
      sasl: { mechanism: "scram-sha-512", username: "ledger", password: "pw" },
    });
  });

  it("trusts the CA of KAFKA_TLS_CA_FILE, which implies TLS", () => {
    const file = join(mkdtempSync(join(tmpdir(), "kafka-ca-")), "ca.pem");
    writeFileSync(file, PEM);
    expect(loadKafkaSecurity({ KAFKA_TLS_CA_FILE: file })).toEqual({ ssl: { ca: [PEM] } });
  });

  it("refuses incomplete or unknown SASL settings without printing the password", () => {
    const problems = (env: Record<string, string>) => {
      try {
        loadKafkaSecurity(env);
        return "";
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
    };
    expect(problems({ KAFKA_SASL_MECHANISM: "scram-sha-256" })).toMatch(/KAFKA_SASL_USERNAME is required/);
    expect(problems({ KAFKA_SASL_MECHANISM: "gssapi" })).toMatch(/expected one of plain, scram-sha-256/);
    const orphan = problems({ KAFKA_SASL_USERNAME: "u", KAFKA_SASL_PASSWORD: "hunter2-secret" });
    expect(orphan).toMatch(/need KAFKA_SASL_MECHANISM/);
    expect(orphan).not.toContain("hunter2-secret");
  });

  it("refuses SASL without TLS in production, and allows it elsewhere", () => {
    const sasl = { KAFKA_SASL_MECHANISM: "plain", KAFKA_SASL_USERNAME: "u", KAFKA_SASL_PASSWORD: "p" };
    expect(() => loadKafkaSecurity({ ...sasl, NODE_ENV: "production" })).toThrow(/needs KAFKA_TLS=true/);
    expect(loadKafkaSecurity(sasl).sasl?.mechanism).toBe("plain");
    expect(loadKafkaSecurity({ ...sasl, NODE_ENV: "production", KAFKA_TLS: "1" }).ssl).toBe(true);
  });
});

describe("Kafka client timing from the environment", () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadKafkaTiming(env);
      return "";
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
  };

  it("defaults to a session the broker accepts by default and short waits between retries", () => {
    expect(loadKafkaTiming({})).toEqual({
      retry: { initialRetryTime: 100, maxRetryTime: 1_000, retries: 10 },
      sessionTimeout: 6_000,
      heartbeatInterval: 1_000,
    });
    expect(loadKafkaTiming({})).toEqual(DEFAULT_KAFKA_TIMING);
  });

  it("reads every setting", () => {
    expect(
      loadKafkaTiming({
        KAFKA_SESSION_TIMEOUT_MS: "3000",
        KAFKA_HEARTBEAT_INTERVAL_MS: "1000",
        KAFKA_RETRY_INITIAL_MS: "50",
        KAFKA_RETRY_MAX_MS: "500",
        KAFKA_RETRIES: "20",
      }),
    ).toEqual({
      retry: { initialRetryTime: 50, maxRetryTime: 500, retries: 20 },
      sessionTimeout: 3_000,
      heartbeatInterval: 1_000,
    });
  });

  it("refuses a value that is not a positive integer, naming the variable", () => {
    expect(problems({ KAFKA_SESSION_TIMEOUT_MS: "6s" })).toMatch(/KAFKA_SESSION_TIMEOUT_MS/);
    expect(problems({ KAFKA_RETRIES: "0" })).toMatch(/KAFKA_RETRIES/);
    expect(problems({ KAFKA_RETRY_MAX_MS: "-1" })).toMatch(/KAFKA_RETRY_MAX_MS/);
  });

  it("refuses a heartbeat above a third of the session and a first wait above the longest", () => {
    expect(problems({ KAFKA_SESSION_TIMEOUT_MS: "3000", KAFKA_HEARTBEAT_INTERVAL_MS: "1001" })).toMatch(
      /KAFKA_HEARTBEAT_INTERVAL_MS must be at most a third of KAFKA_SESSION_TIMEOUT_MS/,
    );
    expect(problems({ KAFKA_SESSION_TIMEOUT_MS: "3000", KAFKA_HEARTBEAT_INTERVAL_MS: "1000" })).toBe("");
    expect(problems({ KAFKA_RETRY_INITIAL_MS: "2000" })).toMatch(
      /KAFKA_RETRY_INITIAL_MS must not exceed KAFKA_RETRY_MAX_MS/,
    );
  });
});
