/**
 * Receiver health for operators on real PostgreSQL, through the gateway's admin API and the dispatcher's
 * WebhookAdminService: each receiver's circuit, pause, backlog, oldest pending age and attempts in flight;
 * the filters and pages; pausing and resuming (which wakes the workers); and the cost of the list with a
 * receiver 200,000 rows behind.
 */
import { newId } from "@payouts/platform/ids";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestReceiver, type TestReceiver } from "./support/test-receiver.js";
import { createConfig, type Json } from "./support/webhook-fixtures.js";
import {
  eventually,
  type Partner,
  startWebhookHarness,
  type WebhookHarness,
} from "./support/webhook-harness.js";

const DAY_MS = 86_400_000;

describe("receiver health", () => {
  let harness: WebhookHarness;
  let receiver: TestReceiver;
  let alpha: Partner;
  let beta: Partner;
  let quiet: Json;
  let behind: Json;
  let broken: Json;

  /** Pending rows of `configId`, created `ageMs` ago and not due before tomorrow (no worker takes them). */
  async function queue(configId: string, partnerId: string, count: number, ageMs: number, dueInMs = DAY_MS) {
    await harness.db.query(
      `INSERT INTO webhooks.deliveries (delivery_id, event_id, config_id, partner_id, tx_id, sequence, event_type,
         body, status, next_attempt_at, created_at)
       SELECT $1 || '_' || i, $1 || '_evt_' || i, $2, $3, $1 || '_tx_' || i, 1, 'transaction.success',
              convert_to('{"test":"receiver-health"}', 'UTF8'), 'pending', now() + $6 * interval '1 millisecond',
              now() - $5 * interval '1 millisecond' + i * interval '1 microsecond'
         FROM generate_series(1, $4::int) AS i`,
      [newId("whd"), configId, partnerId, count, ageMs, dueInMs],
    );
  }

  const list = async (query = "") => {
    const res = await harness.admin("GET", `/admin/webhook-receivers${query ? `?${query}` : ""}`);
    expect(res.status, res.text).toBe(200);
    return res.json as Json;
  };

  beforeAll(async () => {
    // Workers poll once a minute: only a wake-up gets a due row out sooner.
    harness = await startWebhookHarness({ env: { WEBHOOK_POLL_INTERVAL_MS: "60000" } });
    receiver = await startTestReceiver(() => ({ status: 200, body: "{}" }));
    alpha = await harness.createPartner();
    beta = await harness.createPartner();
    quiet = await createConfig(harness, alpha, { url: `${receiver.url}/quiet` });
    behind = await createConfig(harness, alpha, { url: `${receiver.url}/behind` });
    broken = await createConfig(harness, beta, { url: `${receiver.url}/broken` });
    await queue(behind.config_id, alpha.partnerId, 3, 600_000);
    await queue(broken.config_id, beta.partnerId, 1, 30_000);
    // As the circuit breaker leaves a receiver that failed five times in a row.
    await harness.db.query(
      `UPDATE webhooks.configs SET circuit_state = 'open', circuit_failures = 5,
         circuit_opened_at = now() - interval '2 minutes', circuit_retry_at = now() + interval '1 minute'
       WHERE config_id = $1`,
      [broken.config_id],
    );
    // One attempt in flight to the receiver behind.
    await harness.db.query(
      `UPDATE webhooks.deliveries SET status = 'delivering', lease_expires_at = now() + interval '1 hour'
        WHERE delivery_id = (SELECT min(delivery_id) FROM webhooks.deliveries WHERE config_id = $1)`,
      [behind.config_id],
    );
  });
  afterAll(async () => {
    await harness?.close();
    await receiver?.close();
  });

  it("lists each receiver with its circuit, pause, backlog, oldest pending age and attempts in flight", async () => {
    const page = await list();
    expect(Date.parse(page.as_of)).toBeGreaterThan(Date.now() - 60_000);
    expect(page.next_cursor).toBeNull();
    const byId = new Map(page.receivers.map((r: Json) => [r.config_id, r]));
    expect(page.receivers.map((r: Json) => r.config_id)).toEqual(
      [quiet, behind, broken].map((c) => c.config_id).sort(),
    );
    expect(byId.get(quiet.config_id)).toEqual({
      config_id: quiet.config_id,
      partner_id: alpha.partnerId,
      url: `${receiver.url}/quiet`,
      enabled: true,
      paused: false,
      circuit_state: "closed",
      circuit_failures: 0,
      circuit_opened_at: null,
      circuit_retry_at: null,
      pending: 0,
      oldest_pending_age_seconds: 0,
      delivering: 0,
    });
    const late = byId.get(behind.config_id) as Json;
    expect([late.pending, late.delivering]).toEqual([2, 1]);
    // The oldest pending row was created 10 minutes ago.
    expect(late.oldest_pending_age_seconds).toBeGreaterThanOrEqual(599);
    expect(late.oldest_pending_age_seconds).toBeLessThan(660);
    const open = byId.get(broken.config_id) as Json;
    expect(open).toMatchObject({
      partner_id: beta.partnerId,
      circuit_state: "open",
      circuit_failures: 5,
      pending: 1,
    });
    expect(Date.parse(open.circuit_opened_at)).toBeLessThan(Date.now() - 60_000);
    expect(Date.parse(open.circuit_retry_at)).toBeGreaterThan(Date.now());
  });

  it("filters by partner, backlog and open circuit, and pages with the cursor", async () => {
    const ids = async (query: string) => (await list(query)).receivers.map((r: Json) => r.config_id);
    expect(await ids(`partner_id=${beta.partnerId}`)).toEqual([broken.config_id]);
    expect(await ids("with_backlog=true")).toEqual([behind.config_id, broken.config_id].sort());
    expect(await ids("circuit_open=true")).toEqual([broken.config_id]);
    expect(await ids(`circuit_open=true&partner_id=${alpha.partnerId}`)).toEqual([]);
    expect(await ids(`with_backlog=true&partner_id=${alpha.partnerId}`)).toEqual([behind.config_id]);

    const all = await ids("");
    const first = await list("limit=2");
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await list(`limit=2&cursor=${first.next_cursor}`);
    expect(second.next_cursor).toBeNull();
    expect([...first.receivers, ...second.receivers].map((r: Json) => r.config_id)).toEqual(all);
  });

  it.each([
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["cursor=garbage", "cursor"],
    ["with_backlog=maybe", "with_backlog"],
    ["partner_id=", "partner_id"],
    ["state=open", "state"],
  ])("refuses %s as 400 INVALID_FIELD naming %s", async (query, field) => {
    const res = await harness.admin("GET", `/admin/webhook-receivers?${query}`);
    expect([res.status, res.json.code, res.json.field], res.text).toEqual([400, "INVALID_FIELD", field]);
  });

  it("pauses and resumes a receiver, shows it paused meanwhile, and answers 404 for an unknown one", async () => {
    const paused = await harness.admin("POST", `/admin/webhook-receivers/${behind.config_id}/pause`);
    expect(paused.status, paused.text).toBe(200);
    expect(paused.json).toMatchObject({
      config_id: behind.config_id,
      paused: true,
      pending: 2,
      delivering: 1,
    });
    // Pausing again changes nothing.
    const again = await harness.admin("POST", `/admin/webhook-receivers/${behind.config_id}/pause`);
    expect([again.status, again.json.paused]).toEqual([200, true]);
    const stored = await harness.db.query<{ paused: boolean }>(
      "SELECT paused FROM webhooks.configs WHERE config_id = $1",
      [behind.config_id],
    );
    expect(stored.rows[0]?.paused).toBe(true);
    const shown = (await list()).receivers.find((r: Json) => r.config_id === behind.config_id);
    expect(shown.paused).toBe(true);

    const resumed = await harness.admin("POST", `/admin/webhook-receivers/${behind.config_id}/resume`);
    expect([resumed.status, resumed.json.paused], resumed.text).toEqual([200, false]);
    expect((await list()).receivers.every((r: Json) => r.paused === false)).toBe(true);

    for (const action of ["pause", "resume"]) {
      const res = await harness.admin("POST", `/admin/webhook-receivers/whc_unknown/${action}`);
      expect([res.status, res.json.code], res.text).toEqual([404, "WEBHOOK_CONFIG_NOT_FOUND"]);
    }
  });

  it("answers none of these routes without the admin token, or with a wrong one", async () => {
    const routes: [string, string][] = [
      ["GET", "/admin/webhook-receivers"],
      ["POST", `/admin/webhook-receivers/${quiet.config_id}/pause`],
      ["POST", `/admin/webhook-receivers/${quiet.config_id}/resume`],
    ];
    for (const [method, path] of routes) {
      for (const token of [null, "wrong-token"]) {
        const res = await harness.admin(method, path, undefined, token);
        expect([res.status, res.json.code], `${method} ${path}`).toEqual([401, "AUTHENTICATION_REQUIRED"]);
      }
    }
    const still = (await list()).receivers.find((r: Json) => r.config_id === quiet.config_id);
    expect(still.paused).toBe(false);
    // A partner's credentials do not reach the admin listener's routes on the partner listener either.
    const partnerTry = await harness.api(alpha, "GET", "/admin/webhook-receivers");
    expect(partnerTry.status).toBe(404);
  });

  it("resuming wakes the workers: a due row goes out at once, not at the next poll a minute later", async () => {
    const partner = await harness.createPartner();
    const config = await createConfig(harness, partner, { url: `${receiver.url}/woken` });
    await harness.admin("POST", `/admin/webhook-receivers/${config.config_id}/pause`);
    // Stored behind the workers' back (nothing wakes them), due now.
    await queue(config.config_id, partner.partnerId, 1, 1_000, 0);
    const started = Date.now();
    const res = await harness.admin("POST", `/admin/webhook-receivers/${config.config_id}/resume`);
    expect(res.status, res.text).toBe(200);
    await eventually(
      async () => (receiver.requests.some((r) => r.path.startsWith("/woken/")) ? true : undefined),
      10_000,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("answers in well under a second with one receiver 200,000 rows behind and a large delivered history", async () => {
    const partner = await harness.createPartner();
    const big = await createConfig(harness, partner, { url: `${receiver.url}/big` });
    const done = await createConfig(harness, partner, { url: `${receiver.url}/done` });
    const small = await createConfig(harness, partner, { url: `${receiver.url}/small` });
    await queue(big.config_id, partner.partnerId, 200_000, 3_600_000);
    await queue(small.config_id, partner.partnerId, 10, 60_000);
    await queue(done.config_id, partner.partnerId, 200_000, 7_200_000);
    await harness.db.query(
      "UPDATE webhooks.deliveries SET status = 'delivered', delivered_at = now() WHERE config_id = $1",
      [done.config_id],
    );
    await harness.db.query("VACUUM ANALYZE webhooks.deliveries");

    const timed = async () => {
      const started = performance.now();
      const page = await list(`partner_id=${partner.partnerId}`);
      return { page, ms: performance.now() - started };
    };
    await timed();
    const { page, ms } = await timed();
    expect(ms).toBeLessThan(1_000);
    const row = page.receivers.find((r: Json) => r.config_id === big.config_id);
    expect([row.pending, row.delivering]).toEqual([200_000, 0]);
    expect(row.oldest_pending_age_seconds).toBeGreaterThanOrEqual(3_599);
    expect(page.receivers.find((r: Json) => r.config_id === done.config_id).pending).toBe(0);

    expect(page.receivers.find((r: Json) => r.config_id === small.config_id).pending).toBe(10);

    // A receiver's figures come from its index range, not from a scan of the table, beside a receiver that
    // holds half the table (for that one, reading the table may be the planner's cheaper choice).
    const plan = await harness.db.query<{ "QUERY PLAN": string }>(
      `EXPLAIN SELECT count(*), min(p.created_at) FROM webhooks.deliveries p
        WHERE p.config_id = $1 AND p.status = 'pending'`,
      [small.config_id],
    );
    const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
    // The claim's index of pending rows serves the range (it carries created_at).
    expect(text).toMatch(/(using|on) deliveries_config_due_idx/);
    expect(text).not.toContain("Seq Scan");
  });
});
