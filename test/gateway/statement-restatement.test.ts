/**
 * Restatements over HTTP on the whole platform (real PostgreSQL): the operator corrects a closed day
 * (idempotently, by X-Idempotency-Key); the partner still gets the original byte for byte with the same
 * ETag plus a `Link` to the next revision, and reads the restatement with `?revision=`, which has its own
 * hash and ETag and ends with the adjustment line. Refusals: a day not closed, a negative correction the
 * balance cannot cover (nothing moves), an unknown revision.
 */
import { closeDueDays } from "@payouts/ledger/internal/operations/daily-statements";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { Dec } from "@payouts/platform/money/decimal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../ledger/support/ledger-harness.js";
import { fundedPartner, type Partner } from "../ledger/support/payout-fixtures.js";
import { justAfterGrace, localDay } from "../support/partner-days.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers read in assertions
type Json = any;

const GRACE_MS = 600_000;

describe("restating a closed day over HTTP", () => {
  let platform: TestPlatform;
  let partner: Partner;
  let original: Json;
  /** The (UTC) day of the partner's credit: the day closed and restated. */
  let today: string;

  beforeAll(async () => {
    platform = await startTestPlatform();
    partner = await fundedPartner(platform, "100");
    // The credit must be below the feed's watermark before the close takes it.
    const credit = await waitFor(
      "the credit in the feed",
      async () => (await get("/balance/entries")).json.entries[0],
      15_000,
    );
    today = localDay(credit.created_at);
    expect((await get(`/statements/daily/${today}`)).json.line_count).toBe(1);
    // The ledger's closer, run just after the day's grace period: it closes that day and not the next.
    const db = createPgDatabase({ connectionString: platform.databaseUrl, maxConnections: 2 });
    try {
      expect(await closeDueDays(db, justAfterGrace(today, "UTC", GRACE_MS), GRACE_MS)).toBe(1);
    } finally {
      await db.close();
    }
    original = await get(`/statements/daily/${today}`);
    expect(original.json).toMatchObject({ status: "closed", revision: 1, line_count: 1 });
  });
  afterAll(async () => {
    await platform?.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    platform.partner(partner, "GET", path, undefined, headers);
  const correct = (key: string, body: unknown, partnerId = partner.partnerId, date = today) =>
    platform.admin("POST", `/admin/partners/${partnerId}/statements/${date}/corrections`, body, {
      "X-Idempotency-Key": key,
    });
  const balance = async () =>
    (await platform.admin("GET", `/admin/partners/${partner.partnerId}/balance`)).json.balance_usd;

  it("stores revision 2 once per key, keeps the original's bytes and ETag, and links them", async () => {
    const first = await correct("fix-1", { amount_usd: "2.50", note: "bank fee returned" });
    expect(first.status, first.text).toBe(201);
    expect(first.json).toMatchObject({ revision: 2, restates: original.json.statement_id, date: today });
    const replay = await correct("fix-1", { amount_usd: "2.5", note: "bank fee returned" });
    expect([replay.status, replay.text]).toEqual([201, first.text]);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    const reused = await correct("fix-1", { amount_usd: "3", note: "bank fee returned" });
    expect(reused.json.code).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await balance()).toBe("102.5");

    const again = await get(`/statements/daily/${today}`);
    expect(again.text).toBe(original.text);
    expect(again.headers.get("etag")).toBe(original.headers.get("etag"));
    expect(again.headers.get("link")).toBe(
      `</statements/daily/${today}?revision=2>; rel="successor-version"`,
    );
    const notModified = await get(`/statements/daily/${today}`, {
      "if-none-match": original.headers.get("etag") ?? "",
    });
    expect(notModified.status).toBe(304);

    const r2 = await get(`/statements/daily/${today}?revision=2`);
    expect(r2.status, r2.text).toBe(200);
    expect(r2.json).toMatchObject({
      status: "closed",
      revision: 2,
      restates: original.json.statement_id,
      statement_id: first.json.statement_id,
      opening_balance_usd: original.json.opening_balance_usd,
      line_count: original.json.line_count + 1,
    });
    expect(r2.json.closing_balance_usd).toBe(
      new Dec(original.json.closing_balance_usd).plus("2.5").toFixed(),
    );
    expect(r2.json.lines.slice(0, -1)).toEqual(original.json.lines);
    expect(r2.json.lines.at(-1)).toMatchObject({ type: "adjustment", amount_usd: "2.5" });
    expect(r2.json.sha256).not.toBe(original.json.sha256);
    expect(r2.headers.get("etag")).toBe(`"${r2.json.sha256}"`);
    expect(r2.headers.get("link")).toBeNull();
    expect((await get(`/statements/daily/${today}?revision=2`)).text).toBe(r2.text);
    const csv = await get(`/statements/daily/${today}?revision=2&format=csv`);
    expect(csv.headers.get("etag")).toBe(`"${r2.json.sha256}-csv"`);
    expect(csv.text).toContain("adjustment");

    // The adjustment is a line of the feed too (the day it was written on is the first open day).
    await expect
      .poll(async () => (await get("/balance/entries?limit=10")).json.entries.map((e: Json) => e.type), {
        timeout: 15_000,
      })
      .toEqual(["credit", "adjustment"]);

    const minus = await correct("fix-2", { amount_usd: "-1", note: "double refund" });
    expect(minus.json).toMatchObject({ revision: 3, restates: original.json.statement_id });
    const linked = await get(`/statements/daily/${today}?revision=2`);
    expect(linked.headers.get("link")).toBe(
      `</statements/daily/${today}?revision=3>; rel="successor-version"`,
    );
    expect(linked.text).toBe(r2.text);
    const r3 = (await get(`/statements/daily/${today}?revision=3`)).json;
    expect(r3.closing_balance_usd).toBe(new Dec(original.json.closing_balance_usd).plus("1.5").toFixed());
  });

  it("refuses an unknown revision, a day not closed and a correction the balance cannot cover", async () => {
    const unknown = await get(`/statements/daily/${today}?revision=9`);
    expect([unknown.status, unknown.json.code]).toEqual([404, "STATEMENT_REVISION_NOT_FOUND"]);
    const before = await balance();
    const tooMuch = await correct("fix-3", {
      amount_usd: `-${new Dec(before).plus("0.01").toFixed()}`,
      note: "x",
    });
    expect([tooMuch.status, tooMuch.json.code]).toEqual([409, "INSUFFICIENT_FUNDS"]);
    expect(await balance()).toBe(before);
    const zero = await correct("fix-4", { amount_usd: "0", note: "x" });
    expect([zero.status, zero.json.code]).toEqual([400, "INVALID_AMOUNT"]);

    const fresh = await fundedPartner(platform, "5");
    const open = await correct("fix-5", { amount_usd: "1", note: "x" }, fresh.partnerId);
    expect([open.status, open.json.code]).toEqual([409, "STATEMENT_DAY_NOT_CLOSED"]);
    const missing = await correct("fix-6", { amount_usd: "1", note: "x" }, "ptr_nobody");
    expect(missing.json.code).toBe("PARTNER_NOT_FOUND");
  });
});
