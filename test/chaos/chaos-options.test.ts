import { describe, expect, it } from "vitest";
import {
  faultName,
  faultPlan,
  KILLED_ROLES,
  kafkaRetryBudgetMs,
  parseChaosOptions,
  RESUMPTION_LIMITS,
  UsageError,
} from "./chaos-options.js";

describe("parseChaosOptions", () => {
  it("runs the full mode by default and the short one with --short", () => {
    expect(parseChaosOptions([]).mode).toBe("full");
    expect(parseChaosOptions(["--short"]).mode).toBe("short");
    expect(parseChaosOptions(["--short", "--full"]).mode).toBe("full");
  });

  it("keeps --keep-infra whatever order the flags come in", () => {
    expect(parseChaosOptions(["--keep-infra", "--short"])).toMatchObject({ mode: "short", keepInfra: true });
    expect(parseChaosOptions(["--short"]).keepInfra).toBe(false);
  });

  it("restarts the killed dispatcher well inside the limit its stored deliveries are held to", () => {
    for (const options of [parseChaosOptions([]), parseChaosOptions(["--short"])]) {
      expect(options.webhooksDownSeconds * 1000).toBeLessThan(RESUMPTION_LIMITS.webhooksKill.storedMs / 2);
      expect(options.storedBeforeKillSeconds).toBeGreaterThan(0);
    }
  });

  it("refuses an unknown argument with the usage", () => {
    expect(() => parseChaosOptions(["--quick"])).toThrow(UsageError);
    expect(() => parseChaosOptions(["--quick"])).toThrow(/usage: npm run chaos/);
  });

  it("keeps the short mode's phases shorter than the full mode's", () => {
    const short = parseChaosOptions(["--short"]);
    const full = parseChaosOptions([]);
    for (const key of [
      "baselineSeconds",
      "kafkaOutageSeconds",
      "receiverFailingSeconds",
      "replicaSeconds",
    ] as const)
      expect(short[key]).toBeLessThan(full[key]);
  });
});

describe("the Kafka outage", () => {
  it("computes the client's retry budget: 7.5 s nominal, about 8.1 s with the worst jitter", () => {
    expect(kafkaRetryBudgetMs("nominal")).toBe(100 + 200 + 400 + 800 + 6 * 1_000);
    expect(kafkaRetryBudgetMs("worst")).toBeGreaterThan(8_000);
    expect(kafkaRetryBudgetMs("worst")).toBeLessThan(8_200);
  });

  it("outlasts the nominal budget in the short mode and the worst case in the full mode", () => {
    expect(parseChaosOptions(["--short"]).kafkaOutageSeconds * 1000).toBeGreaterThan(
      kafkaRetryBudgetMs("nominal"),
    );
    expect(parseChaosOptions([]).kafkaOutageSeconds * 1000).toBeGreaterThan(kafkaRetryBudgetMs("worst"));
  });
});

describe("faultPlan", () => {
  it("runs a baseline, the failing receiver, kills every process once, then the broker, database and replica faults", () => {
    const names = faultPlan(parseChaosOptions(["--short"])).map(faultName);
    expect(names).toEqual([
      "baseline (no fault)",
      "receiver 500s 8 s",
      ...KILLED_ROLES.map((role) => `kill -9 ${role}`),
      "kafka outage 60 s",
      "postgres restart -m fast",
      "postgres restart -m immediate",
      "2 replicas gw+ledger+webhooks",
    ]);
    expect(new Set(names).size).toBe(names.length);
  });

  it("adds the bulk payout through two ledger kills to the full run only", () => {
    const full = faultPlan(parseChaosOptions([])).map(faultName);
    expect(full.at(-1)).toBe("batch of 400, kill -9 ledger twice");
    const short = faultPlan(parseChaosOptions(["--short"])).map((f) => f.kind);
    expect(short).not.toContain("batch-kill");
    expect(full).toHaveLength(short.length + 1);
  });

  it("kills each of the six processes of the topology", () => {
    expect([...KILLED_ROLES].sort()).toEqual(
      ["gateway", "ledger", "lookup", "pricing", "sandbox-rail", "webhooks"].sort(),
    );
  });
});
