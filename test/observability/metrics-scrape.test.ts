/**
 * Observability, metrics: after a payout journey (embedded runtime on real
 * PostgreSQL and Kafka), the admin listener's /metrics and a distributed process's METRICS_PORT listener
 * expose the documented series with plausible values.
 */
import { readFileSync } from "node:fs";
import { createLogger } from "@payouts/platform/logging/logger";
import { type MetricsServerHandle, startMetricsServer } from "@payouts/platform/telemetry/metrics-server";
import { activeTelemetry } from "@payouts/platform/telemetry/start-telemetry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { startTestReceiver, type TestReceiver } from "../webhooks/support/test-receiver.js";
import { lookup, payOut, preparePartner } from "./support/payout-journey.js";
import { parsePrometheus, type Sample } from "./support/prometheus-text.js";

interface Rule {
  readonly alert: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

describe("Prometheus metrics after traffic", () => {
  let platform: TestPlatform;
  let receiver: TestReceiver;
  let listener: MetricsServerHandle;
  let samples: Sample[];

  const value = (name: string, labels: Record<string, string> = {}): number => {
    const matching = samples.filter(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    );
    expect(matching.length, `${name} ${JSON.stringify(labels)}`).toBeGreaterThan(0);
    return matching.reduce((sum, s) => sum + s.value, 0);
  };

  beforeAll(async () => {
    platform = await startTestPlatform({
      kafka: true,
      env: {
        WEBHOOK_CONSUMER_GROUP: `metrics-${Date.now()}`,
        WEBHOOK_RETRY_SCHEDULE_MS: "0,200,200",
        QUOTE_TTL_MS: "600000",
      },
    });
    receiver = await startTestReceiver();
    const partner = await preparePartner(platform, receiver.url);
    await payOut(platform, partner, await lookup(platform, partner));
    await receiver.waitFor(1, (r) => r.path === "/partner/webhooks/transactions/success", 30_000);
    // The attempt is recorded (and counted) right after the receiver answered.
    await new Promise((r) => setTimeout(r, 500));
    const res = await fetch(`${platform.adminUrl}/metrics`);
    expect(res.status).toBe(200);
    samples = parsePrometheus(await res.text());
    listener = await startMetricsServer({
      telemetry: await activeTelemetry()!,
      port: 0,
      // No host: the listener must bind to loopback by default.
      logger: createLogger({ service: "metrics-test", level: "silent" }),
    });
  });
  afterAll(async () => {
    await listener?.close();
    await platform?.close();
    await receiver?.close();
  });

  it("binds the metrics listener to loopback unless HOST says otherwise", () => {
    expect(listener.host).toBe("127.0.0.1");
  });

  it("counts gateway requests per route with their latency", () => {
    const labels = {
      listener: "partner",
      http_route: "/lookupPaymentCode",
      http_response_status_code: "200",
    };
    expect(value("payouts_http_server_duration_seconds_count", labels)).toBe(1);
    const seconds = value("payouts_http_server_duration_seconds_sum", labels);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(10);
    expect(value("payouts_http_server_duration_seconds_count", { http_route: "/executePayout" })).toBe(1);
  });

  it("counts RPCs per method and outcome", () => {
    const execute = { rpc_method: "ExecutePayout", outcome: "ok", rpc_grpc_status_code: "0" };
    expect(value("payouts_rpc_server_duration_seconds_count", execute)).toBe(1);
    expect(value("payouts_rpc_server_duration_seconds_count", { rpc_method: "ResolveDestination" })).toBe(1);
  });

  it("counts transactions by corridor and status and balance movements by kind", () => {
    const ng = { country: "NG", currency: "NGN" };
    for (const status of ["PENDING", "PROCESSING", "SUCCESS"]) {
      expect(value("payouts_ledger_transactions_total", { ...ng, status }), status).toBe(1);
    }
    expect(value("payouts_ledger_movements_total", { kind: "credit" })).toBe(1);
    expect(value("payouts_ledger_movement_volume_usd_total", { kind: "credit" })).toBeCloseTo(100, 6);
    // 15000 NGN at 1500 = 10 USD, plus 1.5 % and 0.30: 10.45 debited, then settled.
    expect(value("payouts_ledger_movement_volume_usd_total", { kind: "payout" })).toBeCloseTo(10.45, 6);
    expect(value("payouts_ledger_movements_total", { kind: "settlement" })).toBe(1);
  });

  it("reports the outbox lag and the consumer lag as drained", () => {
    expect(value("payouts_ledger_outbox_unpublished")).toBe(0);
    expect(value("payouts_ledger_outbox_lag_seconds")).toBe(0);
    const lag = samples.filter((s) => s.name === "payouts_kafka_consumer_lag");
    expect(lag.length).toBeGreaterThan(0);
    for (const sample of lag) expect(sample.value).toBeGreaterThanOrEqual(0);
  });

  it("counts webhook deliveries by outcome, the attempts they took and their end-to-end latency", () => {
    const success = { event_type: "transaction.success", outcome: "delivered" };
    expect(value("payouts_webhooks_attempts_total", success)).toBe(1);
    expect(value("payouts_webhooks_deliveries_total", success)).toBe(1);
    expect(value("payouts_webhooks_delivery_attempts_count", { outcome: "delivered" })).toBe(1);
    expect(value("payouts_webhooks_delivery_attempts_sum", { outcome: "delivered" })).toBe(1);
    expect(value("payouts_webhooks_delivery_latency_seconds_count")).toBe(1);
    const latency = value("payouts_webhooks_delivery_latency_seconds_sum");
    expect(latency).toBeGreaterThan(0);
    expect(latency).toBeLessThan(30);
  });

  it("reports the receiver health gauges: backlog and oldest age by receiver status, circuits, pauses", () => {
    for (const receiver_status of ["active", "paused", "disabled"]) {
      expect(value("payouts_webhooks_backlog", { receiver_status })).toBeGreaterThanOrEqual(0);
      expect(
        value("payouts_webhooks_backlog_oldest_age_seconds", { receiver_status }),
      ).toBeGreaterThanOrEqual(0);
    }
    expect(value("payouts_webhooks_circuits", { state: "open" })).toBe(0);
    expect(value("payouts_webhooks_circuits", { state: "half_open" })).toBe(0);
    expect(value("payouts_webhooks_receivers_paused")).toBe(0);
  });

  it("reports open reconciliation breaks for every break type of the ledger's rail, 0 while none is open", () => {
    for (const type of [
      "missing_at_rail",
      "missing_in_ledger",
      "amount_mismatch",
      "status_mismatch",
      "duplicate_at_rail",
    ]) {
      expect(value("payouts_reconciliation_open_breaks", { rail: "sandbox", type })).toBe(0);
    }
  });

  it("alerts on a growing backlog, late deliveries, circuits open for 10 minutes and open reconciliation breaks", () => {
    const text = readFileSync(
      new URL("../../deploy/observability/prometheus-rules.yaml", import.meta.url),
      "utf8",
    );
    const rules = (parseYaml(text) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
    const rule = (name: string) => rules.find((r) => r.alert === name);
    expect(rule("PayoutsWebhookBacklogGrowing")).toMatchObject({
      for: "15m",
      labels: { severity: "warning" },
    });
    expect(rule("PayoutsWebhookBacklogGrowing")?.expr).toMatch(
      /deriv\(max\(payouts_webhooks_backlog\{receiver_status="active"\}\)/,
    );
    expect(rule("PayoutsWebhookDeliveriesLate")).toMatchObject({
      expr: 'max(payouts_webhooks_backlog_oldest_age_seconds{receiver_status="active"}) > 300',
      for: "5m",
    });
    expect(rule("PayoutsWebhookCircuitsOpen")).toMatchObject({
      expr: "sum(max by (state) (payouts_webhooks_circuits)) > 0",
      for: "10m",
    });
    expect(rule("PayoutsReconciliationBreaksOpen")).toMatchObject({
      expr: "max by (rail, type) (payouts_reconciliation_open_breaks) > 0",
      labels: { severity: "warning" },
    });
    for (const r of rules) {
      expect(r.annotations?.summary, r.alert).toBeTruthy();
      expect(["warning", "critical"], r.alert).toContain(r.labels?.severity);
    }
  });

  it("has every series the Grafana dashboard and the alert rules query", () => {
    const scraped = new Set(samples.map((s) => s.name));
    for (const file of ["grafana-dashboard.json", "prometheus-rules.yaml"]) {
      const text = readFileSync(new URL(`../../deploy/observability/${file}`, import.meta.url), "utf8");
      const queried = new Set(text.match(/payouts_[a-z_]+/g) ?? []);
      expect(queried.size, file).toBeGreaterThan(5);
      for (const name of queried) expect(scraped, `${name} (${file})`).toContain(name);
    }
  });

  it("serves the same registry on a distributed process's metrics listener", async () => {
    const res = await fetch(`http://127.0.0.1:${listener.port}/metrics`);
    expect(res.status).toBe(200);
    const names = new Set(parsePrometheus(await res.text()).map((s) => s.name));
    for (const name of ["payouts_ledger_transactions_total", "payouts_webhooks_deliveries_total"]) {
      expect(names).toContain(name);
    }
    expect((await fetch(`http://127.0.0.1:${listener.port}/other`)).status).toBe(404);
  });
});
