/**
 * Daily statements through the partner and admin APIs on the whole platform (real PostgreSQL): the
 * operator's time zone setting, a day's JSON with its lines, the close that freezes it (same bytes, strong
 * ETag, 304 on If-None-Match) even when a refund comes after it, the range route, and stable refusals.
 */
import { closeDueDays } from "@payouts/ledger/internal/operations/daily-statements";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { Dec } from "@payouts/platform/money/decimal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../ledger/support/ledger-harness.js";
import {
  executePayout,
  fundedPartner,
  type Partner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "../ledger/support/payout-fixtures.js";
import { clearOfMidnight, justAfterGrace, localDay } from "../support/partner-days.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read in assertions
type Json = any;

const DAY_MS = 86_400_000;
const GRACE_MS = 600_000;
const isoDate = (t: number) => new Date(t).toISOString().slice(0, 10);

describe("daily statements over HTTP", () => {
  let platform: TestPlatform;
  let partner: Partner;
  let txId: string;
  /** The (UTC) day of the partner's credit, payout and fee. */
  let today: string;

  beforeAll(async () => {
    platform = await startTestPlatform({ env: { QUOTE_TTL_MS: "600000" } });
    await setUpCorridor(platform);
    // The credit, the payout and its fee must share a day: write them clear of a midnight.
    await clearOfMidnight("UTC", 60_000);
    partner = await fundedPartner(platform, "100");
    txId = await pendingTransaction(platform, partner.partnerId, { partnerTransactionId: "order-1" });
    await quoted(platform, partner, txId);
    expect((await executePayout(platform, partner, txId, `key-${txId}`)).status).toBe(200);
    const settle = await platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, {
      outcome: "SUCCESS",
    });
    expect(settle.status, settle.text).toBe(200);
    const credit = await waitFor(
      "the credit in the feed",
      async () => (await get("/balance/entries")).json.entries[0],
      15_000,
    );
    today = localDay(credit.created_at);
  }, 180_000);
  afterAll(async () => {
    await platform?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    platform.partner(partner, "GET", path, undefined, headers);

  it("lets the operator set the time zone, refusing a name that is not an IANA zone", async () => {
    const path = `/admin/partners/${partner.partnerId}/statement-settings`;
    expect((await platform.admin("GET", path)).json).toEqual({
      partner_id: partner.partnerId,
      time_zone: "UTC",
    });
    const bad = await platform.admin("PUT", path, { time_zone: "Mars/Olympus_Mons" });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: "INVALID_FIELD", field: "time_zone" });
    const set = await platform.admin("PUT", path, { time_zone: "Etc/UTC" });
    expect(set.status, set.text).toBe(200);
    expect((await platform.admin("GET", path)).json.time_zone).toBe("Etc/UTC");
    const missing = await platform.admin("PUT", "/admin/partners/ptr_nobody/statement-settings", {
      time_zone: "UTC",
    });
    expect(missing.json.code).toBe("PARTNER_NOT_FOUND");
  });

  it("serves a day open, then closed and frozen: the same bytes, its hash as ETag, 304, even after a refund", async () => {
    // Today is open: its lines show up as soon as the feed's watermark passes them.
    let open: Json;
    await expect
      .poll(
        async () => {
          open = await get(`/statements/daily/${today}`);
          return open.json.line_count;
        },
        { timeout: 15_000 },
      )
      .toBe(3);
    expect(open.status).toBe(200);
    expect(open.headers.get("etag")).toBeNull();
    expect(open.json).toMatchObject({
      date: today,
      status: "open",
      currency: "USD",
      opening_balance_usd: "0",
    });
    expect(open.json.lines.map((l: Json) => l.type)).toEqual(["credit", "payout", "fee"]);
    let running = new Dec(open.json.opening_balance_usd);
    for (const line of open.json.lines) {
      running = running.plus(line.amount_usd);
      expect(line.balance_usd).toBe(running.toFixed());
    }
    expect(running.toFixed()).toBe(open.json.closing_balance_usd);

    // The ledger's closer, run just after the day's grace period: it closes that day and not the next.
    const db = createPgDatabase({ connectionString: platform.databaseUrl, maxConnections: 2 });
    try {
      expect(await closeDueDays(db, justAfterGrace(today, "UTC", GRACE_MS), GRACE_MS)).toBe(1);
    } finally {
      await db.close();
    }
    const closed = await get(`/statements/daily/${today}`);
    expect(closed.status).toBe(200);
    expect(closed.json).toMatchObject({ status: "closed", revision: 1, restates: null, line_count: 3 });
    expect(closed.headers.get("etag")).toBe(`"${closed.json.sha256}"`);
    expect(closed.json.lines).toEqual(open.json.lines);
    expect((await get(`/statements/daily/${today}`)).text).toBe(closed.text);
    const notModified = await get(`/statements/daily/${today}`, {
      "if-none-match": closed.headers.get("etag") ?? "",
    });
    expect(notModified.status).toBe(304);
    expect(notModified.text).toBe("");

    // The other formats of the closed day: each with its own strong ETag, the same bytes every time.
    const csv = await get(`/statements/daily/${today}?format=csv`);
    expect(csv.status, csv.text).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(csv.headers.get("etag")).toBe(`"${closed.json.sha256}-csv"`);
    expect(csv.text.split("\r\n")[1]).toContain(closed.json.sha256);
    const camt = await get(`/statements/daily/${today}`, { accept: "application/xml" });
    expect(camt.status, camt.text).toBe(200);
    expect(camt.headers.get("etag")).toBe(`"${closed.json.sha256}-camt053"`);
    expect(camt.text).toContain("<BkToCstmrStmt>");
    expect((await get(`/statements/daily/${today}`, { accept: "text/csv" })).text).toBe(csv.text);
    expect((await get(`/statements/daily/${today}?format=camt053`)).text).toBe(camt.text);
    const refused = await get(`/statements/daily/${today}`, { accept: "application/pdf" });
    expect([refused.status, refused.json.code]).toEqual([406, "NOT_ACCEPTABLE"]);

    // A refund after the close: in the feed, never in the closed day.
    const refund = await platform.admin("POST", `/admin/transactions/${txId}/refund`, { reason: "late" });
    expect(refund.status, refund.text).toBe(200);
    await expect
      .poll(async () => (await get("/balance/entries?limit=10")).json.entries.length, { timeout: 15_000 })
      .toBe(5);
    const after = await get(`/statements/daily/${today}`);
    expect(after.text).toBe(closed.text);
    expect(after.headers.get("etag")).toBe(closed.headers.get("etag"));
    expect((await get(`/statements/daily/${today}?format=csv`)).text).toBe(csv.text);
    expect((await get(`/statements/daily/${today}?format=camt053`)).text).toBe(camt.text);
    expect(
      (await get(`/statements/daily/${today}`, { "if-none-match": closed.headers.get("etag") ?? "" })).status,
    ).toBe(304);

    // The range holds the day before (closed, empty) and the day, the latter byte for byte as the day route.
    const dayBefore = isoDate(Date.parse(today) - DAY_MS);
    const range = await get(`/statements?from=${dayBefore}&to=${today}`);
    expect(range.status, range.text).toBe(200);
    expect(range.json.statements.map((s: Json) => [s.date, s.status, s.line_count])).toEqual([
      [dayBefore, "closed", 0],
      [today, "closed", 3],
    ]);
    expect(range.text).toContain(closed.text);
  });

  it("refuses bad dates and ranges with INVALID_FIELD naming the field, and a day not begun yet", async () => {
    const bad = await get("/statements/daily/2026-02-30");
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: "INVALID_FIELD", field: "date" });
    const long = await get("/statements?from=2026-01-01&to=2026-03-01");
    expect(long.status).toBe(400);
    expect(long.json).toMatchObject({ code: "INVALID_FIELD", field: "to" });
    const malformed = await get("/statements?from=yesterday&to=2026-03-01");
    expect(malformed.status).toBe(400);
    expect(malformed.json).toMatchObject({ code: "INVALID_FIELD", field: "from" });
    const future = await get(`/statements/daily/${isoDate(Date.now() + 3 * DAY_MS)}`);
    expect(future.status).toBe(409);
    expect(future.json).toMatchObject({ code: "STATEMENT_DAY_NOT_STARTED", field: "date" });
  });
});
