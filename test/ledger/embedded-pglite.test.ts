/**
 * The ledger in the embedded mode (`npm start`): PGlite and the in-process bus. The same migrations,
 * triggers, advisory-lock idempotency and relay lease must work there: one payout end to end, a replay,
 * concurrent keys, and every outbox row published.
 */

import { closeDueDays } from "@payouts/ledger/internal/operations/daily-statements";
import { createLogger } from "@payouts/platform/logging/logger";
import { startEmbedded } from "@payouts/runtime/embedded-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { justAfterGrace, localDay } from "../support/partner-days.js";
import { type ApiResponse, freePort } from "../support/test-platform.js";
import { waitFor } from "./support/ledger-harness.js";
import { assertLedgerInvariants } from "./support/ledger-invariants.js";
import { pendingTransaction } from "./support/payout-fixtures.js";

const ADMIN_TOKEN = "embedded-admin-token-0123456789";
let runtime: Awaited<ReturnType<typeof startEmbedded>>;
let call: (
  base: "partner" | "admin",
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<ApiResponse>;

beforeAll(async () => {
  runtime = await startEmbedded({
    env: {
      PORT: String(await freePort()),
      ADMIN_PORT: String(await freePort()),
      HOST: "127.0.0.1",
      ADMIN_TOKEN,
      RAIL_CALLBACK_SECRET: "embedded-callback-secret-of-32-bytes",
      SANDBOX_AUTO_SETTLE_MS: "100",
      LOG_LEVEL: "silent",
    },
    logger: createLogger({ service: "embedded-test", level: "silent" }),
  });
  let auth = "";
  call = async (base, method, path, body, headers = {}) => {
    const port = base === "admin" ? runtime.gateway.adminPort : runtime.gateway.partnerPort;
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: {
        authorization: base === "admin" ? `Bearer ${ADMIN_TOKEN}` : auth,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
  };
  const partner = await call("admin", "POST", "/admin/partners", {
    name: "Embedded",
    supported_currencies: ["NGN"],
    fees: { percent: "1.5", fixed_usd: "0.30" },
  });
  const app = await call("admin", "POST", `/admin/partners/${partner.json.partner_id}/apps`, {});
  auth = `Basic ${Buffer.from(`${app.json.client_id}:${app.json.client_secret}`).toString("base64")}`;
  partnerId = partner.json.partner_id;
  await call("admin", "PUT", "/admin/fx-rates/NGN", { rate_per_usd: "1500" });
  await call("admin", "PUT", "/admin/corridors/NG", {
    currency: "NGN",
    min_amount: "100",
    max_amount: "1000000",
    enabled: true,
  });
}, 120_000);
afterAll(async () => {
  await runtime?.close();
});

let partnerId = "";

describe("ledger on PGlite", () => {
  it("runs a payout end to end with the sandbox rail settling it, and replays", async () => {
    const credit = await call(
      "admin",
      "POST",
      `/admin/partners/${partnerId}/balance/credits`,
      { amount_usd: "100", reference: "r" },
      { "X-Idempotency-Key": "emb-credit-1" },
    );
    expect(credit.status).toBe(201);
    const platformLike = { runtime } as unknown as Parameters<typeof pendingTransaction>[0];
    const txId = await pendingTransaction(platformLike, partnerId);
    expect((await call("partner", "POST", "/getQuotation", { tx_id: txId, amount: 15000 })).status).toBe(200);
    const first = await call(
      "partner",
      "POST",
      "/executePayout",
      { tx_id: txId },
      { "X-Idempotency-Key": "emb-1" },
    );
    expect(first.json.status).toBe("PROCESSING");
    const replay = await call(
      "partner",
      "POST",
      "/executePayout",
      { tx_id: txId },
      { "X-Idempotency-Key": "emb-1" },
    );
    expect(replay.text).toBe(first.text);
    await waitFor("sandbox settlement", async () => {
      const view = await call("partner", "GET", `/transactions/${txId}`);
      return view.json.status === "SUCCESS" || undefined;
    });
    const refund = await call("admin", "POST", `/admin/transactions/${txId}/refund`, {});
    expect(refund.json.status).toBe("REFUNDED");
    expect((await call("admin", "GET", `/admin/partners/${partnerId}/balance`)).json.balance_usd).toBe("100");

    // The statement feed's watermark (pg_current_xact_id, pg_snapshot_xmin) works on PGlite too.
    const feed = await call("partner", "GET", "/balance/entries?limit=2");
    expect(feed.json.entries.map((l: { type: string }) => l.type)).toEqual(["credit", "payout"]);
    const rest = await call("partner", "GET", `/balance/entries?after=${feed.json.next_cursor}`);
    expect(rest.json.entries.map((l: { type: string }) => l.type)).toEqual(["fee", "refund", "fee"]);
    expect(rest.json.entries.at(-1).balance_usd).toBe("100");
  });

  it("serialises concurrent payouts against one balance", async () => {
    const platformLike = { runtime } as unknown as Parameters<typeof pendingTransaction>[0];
    const poor = await call(
      "admin",
      "POST",
      `/admin/partners/${partnerId}/balance/credits`,
      { amount_usd: "20.9", reference: "r" },
      { "X-Idempotency-Key": "emb-credit-2" },
    );
    expect(poor.json.balance_usd).toBe("120.9");
    const txIds: string[] = [];
    for (let i = 0; i < 14; i++) {
      const txId = await pendingTransaction(platformLike, partnerId);
      await call("partner", "POST", "/getQuotation", { tx_id: txId, amount: 15000 });
      txIds.push(txId);
    }
    const answers = await Promise.all(
      txIds.map((txId, i) =>
        call("partner", "POST", "/executePayout", { tx_id: txId }, { "X-Idempotency-Key": `emb-c-${i}` }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(11);
    expect(answers.filter((a) => a.json.code === "INSUFFICIENT_FUNDS")).toHaveLength(3);
    await waitFor("outbox drained", async () => {
      const res = await runtime.db.query("SELECT 1 FROM ledger.outbox WHERE published_at IS NULL LIMIT 1");
      return res.rowCount === 0 || undefined;
    });
    await assertLedgerInvariants(runtime.db);
  });

  it("serves the day of the last payout open, and closed once the closer runs after its grace", async () => {
    // The (UTC) day of the partner's latest entry, whatever the hour: the payouts above are on it.
    const latest = await runtime.db.query<{ at: Date }>(
      "SELECT max(created_at) AS at FROM ledger.entries WHERE partner_id = $1 AND kind = 'balance'",
      [partnerId],
    );
    const today = localDay(latest.rows[0]?.at ?? Number.NaN);
    const open = await call("partner", "GET", `/statements/daily/${today}`);
    expect(open.status, open.text).toBe(200);
    expect(open.json.status).toBe("open");
    expect(open.json.line_count).toBeGreaterThan(0);
    expect(open.json.lines).toHaveLength(open.json.line_count);
    expect(await closeDueDays(runtime.db, justAfterGrace(today, "UTC", 600_000), 600_000)).toBeGreaterThan(0);
    const closed = await call("partner", "GET", `/statements/daily/${today}`);
    expect(closed.json).toMatchObject({ status: "closed", line_count: open.json.line_count });
    expect(closed.json.closing_balance_usd).toBe(open.json.closing_balance_usd);
    expect(closed.headers.get("etag")).toBe(`"${closed.json.sha256}"`);
  });
});
