/**
 * Daily statements on real PostgreSQL, driven through the ledger's RPCs with a controlled clock: days in
 * the partner's time zone (DST days of 23 and 25 hours), the chain of balances across days, closing that
 * freezes a day for good (a refund after the close posts on its own day), entries that become visible
 * after their day closed, and two closers racing.
 */
import { randomUUID } from "node:crypto";
import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, createClient, createRouterTransport } from "@connectrpc/connect";
import { closeDueDays, closeNextDay } from "@payouts/ledger/internal/operations/daily-statements";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { Dec } from "@payouts/platform/money/decimal";
import { StatementEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import type { StatementLine } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { type DailyStatement, StatementService } from "@payouts/proto/payouts/ledger/v1/statements_pb";
import fc from "fast-check";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  destination,
  freshKey,
  type LedgerHarness,
  quote,
  reasonOf,
  startLedgerHarness,
  waitFor,
} from "./support/ledger-harness.js";
import { assertLedgerInvariants } from "./support/ledger-invariants.js";

const GRACE_MS = 10 * 60_000;
let clock = new Date("2026-03-01T00:00:00Z");
let h: LedgerHarness;
let statements: Client<typeof StatementService>;
let seq = 0;
const partner = () => `ptr_days_${++seq}_${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  // The closer runs once at start (nothing to close); the tests close days themselves at chosen times.
  h = await startLedgerHarness(
    { STATEMENT_CLOSE_INTERVAL_MS: "3600000", STATEMENT_CLOSE_GRACE_MS: String(GRACE_MS) },
    { now: () => clock },
  );
  statements = createClient(
    StatementService,
    createRouterTransport((r) => h.module.routes(r)),
  );
});
afterAll(async () => {
  await assertLedgerInvariants(h.db);
  await h.close();
});

/**
 * Waits until every balance entry of the partners is below the feed's watermark. The watermark is the
 * cluster's oldest running transaction: another test's open transaction on the shared server holds it
 * back for a moment, and a close in between would (rightly) leave those entries to the next open day.
 */
async function settled(db = h.db) {
  await waitFor(
    "entries below the watermark",
    async () => {
      const res = await db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ledger.entries
        WHERE kind = 'balance' AND xid >= pg_snapshot_xmin(pg_current_snapshot())`,
      );
      return res.rows[0]?.n === "0" ? true : undefined;
    },
    30_000,
  );
}

/** The closer, once every entry written so far is visible to it. */
async function closeAll(now: Date): Promise<number> {
  await settled();
  return closeDueDays(h.db, now, GRACE_MS);
}

const at = (iso: string) => {
  clock = new Date(iso);
};

async function credit(partnerId: string, amountUsd: string, when?: string) {
  if (when) at(when);
  await h.client.creditBalance({ partnerId, amountUsd, reference: "wire", ...freshKey() });
}

/** A payout executed now: PROCESSING, its debit posted. */
async function payout(partnerId: string, amountUsd: string): Promise<string> {
  const created = await h.client.createTransaction({
    partnerId,
    customerId: "cus_1",
    destination: destination(),
  });
  const txId = created.transaction?.txId ?? "";
  await h.quoteWith({ partnerId, txId, quote: quote(amountUsd, "0.1", "0.25") });
  await h.client.executePayout({
    partnerId,
    txId,
    idempotencyKey: `k-${txId}`,
    requestFingerprint: "1".repeat(64),
    requestId: "req",
  });
  return txId;
}

async function dayLines(partnerId: string, date: string, limit = 3): Promise<StatementLine[]> {
  const lines: StatementLine[] = [];
  let after = "";
  for (;;) {
    const page = await statements.listDailyStatementLines({ partnerId, date, after, limit });
    if (page.lines.length === 0) return lines;
    lines.push(...page.lines);
    after = page.nextCursor;
  }
}

async function day(partnerId: string, date: string): Promise<DailyStatement> {
  const res = await statements.getDailyStatement({ partnerId, date });
  if (!res.statement) throw new Error("no statement");
  return res.statement;
}

/** opening + Σ lines = closing, with each line's balance the running one; the summary's totals agree. */
async function expectDayConsistent(partnerId: string, s: DailyStatement) {
  const lines = await dayLines(partnerId, s.date);
  let running = new Dec(s.openingBalanceUsd);
  let debits = new Dec(0);
  let credits = new Dec(0);
  for (const line of lines) {
    running = running.plus(line.amountUsd);
    expect(line.balanceAfterUsd, `${s.date} ${line.id}`).toBe(running.toFixed());
    if (new Dec(line.amountUsd).isNegative()) debits = debits.minus(line.amountUsd);
    else credits = credits.plus(line.amountUsd);
  }
  expect(running.toFixed(), s.date).toBe(new Dec(s.closingBalanceUsd).toFixed());
  expect(lines.length, s.date).toBe(s.lineCount);
  expect(debits.toFixed()).toBe(new Dec(s.totalDebitsUsd).toFixed());
  expect(credits.toFixed()).toBe(new Dec(s.totalCreditsUsd).toFixed());
  return lines;
}

describe("days in the partner's time zone", () => {
  it("put the same instant on different days for São Paulo and Lagos", async () => {
    const [sp, lagos] = [partner(), partner()];
    await statements.setStatementSettings({ partnerId: sp, timeZone: "America/Sao_Paulo" });
    await statements.setStatementSettings({ partnerId: lagos, timeZone: "Africa/Lagos" });
    at("2026-03-10T02:30:00Z");
    await credit(sp, "10");
    await credit(lagos, "10");
    at("2026-03-12T00:00:00Z");
    await settled();

    expect((await day(sp, "2026-03-09")).lineCount).toBe(1);
    expect((await day(sp, "2026-03-10")).lineCount).toBe(0);
    expect((await day(lagos, "2026-03-09")).lineCount).toBe(0);
    const lagosDay = await day(lagos, "2026-03-10");
    expect(lagosDay).toMatchObject({ lineCount: 1, timeZone: "Africa/Lagos", status: "open" });
    expect(timestampDate(lagosDay.periodStart ?? fail()).toISOString()).toBe("2026-03-09T23:00:00.000Z");
    expect((await statements.getStatementSettings({ partnerId: sp })).settings?.timeZone).toBe(
      "America/Sao_Paulo",
    );
    expect((await statements.getStatementSettings({ partnerId: partner() })).settings?.timeZone).toBe("UTC");
  });

  it("gives New York a 23-hour and a 25-hour day, and the fall-back night's entries to the right day", async () => {
    const p = partner();
    await statements.setStatementSettings({ partnerId: p, timeZone: "America/New_York" });
    await credit(p, "1", "2026-11-01T05:30:00Z"); // 01:30 EDT
    await credit(p, "2", "2026-11-01T06:30:00Z"); // 01:30 EST, an hour later
    await credit(p, "4", "2026-11-02T04:30:00Z"); // 23:30 EST, still Nov 1
    await credit(p, "8", "2026-11-02T05:00:00Z"); // Nov 2, 00:00 EST
    at("2026-11-03T12:00:00Z");
    expect(await closeAll(clock)).toBeGreaterThanOrEqual(2);

    const fallBack = await day(p, "2026-11-01");
    const span = (s: DailyStatement) =>
      (timestampDate(s.periodEnd ?? fail()).getTime() - timestampDate(s.periodStart ?? fail()).getTime()) /
      3_600_000;
    expect(fallBack).toMatchObject({ status: "closed", lineCount: 3, closingBalanceUsd: "7" });
    expect(span(fallBack)).toBe(25);
    expect(await day(p, "2026-11-02")).toMatchObject({
      status: "closed",
      openingBalanceUsd: "7",
      lineCount: 1,
    });

    at("2027-03-20T00:00:00Z");
    const springForward = await day(p, "2027-03-14");
    expect(span(springForward)).toBe(23);
  });

  it("refuses a bad zone, a bad date, a long range and a day not begun yet with stable reasons", async () => {
    const p = partner();
    expect(await reasonOf(statements.setStatementSettings({ partnerId: p, timeZone: "Mars/Base" }))).toBe(
      "INVALID_FIELD",
    );
    expect(await reasonOf(statements.getDailyStatement({ partnerId: p, date: "2026-02-30" }))).toBe(
      "INVALID_FIELD",
    );
    expect(
      await reasonOf(statements.listDailyStatements({ partnerId: p, from: "2026-01-01", to: "2026-02-01" })),
    ).toBe("INVALID_FIELD");
    at("2026-05-01T12:00:00Z");
    expect(await reasonOf(statements.getDailyStatement({ partnerId: p, date: "2026-05-02" }))).toBe(
      "STATEMENT_DAY_NOT_STARTED",
    );
    expect(await reasonOf(statements.getDailyStatement({ partnerId: "", date: "2026-05-01" }))).toBe(
      "MISSING_REQUIRED_FIELD",
    );
  });
});

describe("closing", () => {
  it("freezes a day: a refund after the close posts on its own day and leaves the closed one as it was", async () => {
    const p = partner();
    await credit(p, "100", "2026-04-01T09:00:00Z");
    const txId = await payout(p, "20");
    await h.client.recordRailResult({ txId, outcome: "SUCCESS" });
    at("2026-04-02T00:05:00Z");
    expect(await closeAll(clock)).toBe(0); // within the grace period
    at("2026-04-02T00:10:00Z");
    await closeAll(clock);
    const closed = await day(p, "2026-04-01");
    expect(closed).toMatchObject({ status: "closed", lineCount: 3, closingBalanceUsd: "79.65" });
    const closedLines = await expectDayConsistent(p, closed);

    at("2026-04-20T15:00:00Z");
    await h.client.refundTransaction({ txId, reason: "customer asked" });
    await settled();
    expect(await day(p, "2026-04-01")).toEqual(closed);
    expect(await dayLines(p, "2026-04-01")).toEqual(closedLines);
    const refundDay = await day(p, "2026-04-20");
    expect(refundDay).toMatchObject({ status: "open", openingBalanceUsd: "79.65", closingBalanceUsd: "100" });
    expect((await dayLines(p, "2026-04-20")).map((l) => l.type)).toEqual(["refund", "fee"]);

    at("2026-04-21T00:10:00Z");
    await closeAll(clock);
    expect(await day(p, "2026-04-01")).toEqual(closed);
    const refundClosed = await day(p, "2026-04-20");
    expect(refundClosed).toMatchObject({ status: "closed", lineCount: 2, closingBalanceUsd: "100" });
    expect(refundClosed.sha256).toBe(refundDay.sha256);
    // The days between hold nothing and chain the balance.
    expect(await day(p, "2026-04-10")).toMatchObject({
      status: "closed",
      lineCount: 0,
      closingBalanceUsd: "79.65",
    });
  });

  it("posts an entry that became visible after its day closed on the first open day", async () => {
    const p = partner();
    await credit(p, "10", "2026-06-01T10:00:00Z");
    // A writer whose transaction began on June 1 and outlives the close of that day.
    const c = new pg.Client({ connectionString: h.url });
    await c.connect();
    try {
      await c.query("BEGIN");
      const movementId = `mv_${randomUUID()}`;
      await c.query(
        `INSERT INTO ledger.movements (movement_id, partner_id, kind, reference, created_at)
         VALUES ($1, $2, 'credit', 'late', '2026-06-01T23:59:00Z')`,
        [movementId, p],
      );
      await c.query(
        `INSERT INTO ledger.entries (movement_id, partner_id, kind, amount, created_at)
         VALUES ($1, $2, 'balance', 5, '2026-06-01T23:59:00Z'), ($1, $2, 'funding', -5, '2026-06-01T23:59:00Z')`,
        [movementId, p],
      );
      at("2026-06-02T01:00:00Z");
      await closeAll(clock);
      await c.query("COMMIT");
    } finally {
      await c.end();
    }
    await settled();
    const june1 = await day(p, "2026-06-01");
    expect(june1).toMatchObject({ status: "closed", lineCount: 1, closingBalanceUsd: "10" });
    const june2 = await day(p, "2026-06-02");
    expect(june2).toMatchObject({
      status: "open",
      openingBalanceUsd: "10",
      lineCount: 1,
      closingBalanceUsd: "15",
    });
    expect(timestampDate((await dayLines(p, "2026-06-02"))[0]?.createdAt ?? fail()).toISOString()).toBe(
      "2026-06-01T23:59:00.000Z",
    );
    at("2026-06-03T01:00:00Z");
    await closeAll(clock);
    expect(await day(p, "2026-06-01")).toEqual(june1);
    expect(await day(p, "2026-06-02")).toMatchObject({
      status: "closed",
      lineCount: 1,
      closingBalanceUsd: "15",
    });
  });

  it("closes a day once when two ledger replicas close at the same time", async () => {
    const p = partner();
    await credit(p, "3", "2026-07-01T10:00:00Z");
    await credit(p, "4", "2026-07-01T11:00:00Z");
    at("2026-07-02T01:00:00Z");
    const other = createPgDatabase({ connectionString: h.url, maxConnections: 4 });
    try {
      await settled();
      const results = await Promise.all([
        closeNextDay(h.db, p, clock, GRACE_MS),
        closeNextDay(other, p, clock, GRACE_MS),
        closeNextDay(h.db, p, clock, GRACE_MS),
        closeNextDay(other, p, clock, GRACE_MS),
      ]);
      // One closes July 1; the others find it closed (and July 2 not due).
      expect(results.filter((r) => r !== undefined).map((r) => r?.date)).toEqual(["2026-07-01"]);
    } finally {
      await other.close();
    }
    const rows = await h.db.query<{ n: string; entries: string }>(
      `SELECT count(*)::text AS n,
              (SELECT count(*) FROM ledger.statement_day_entries m
                 JOIN ledger.statement_days d USING (statement_id) WHERE d.partner_id = $1)::text AS entries
         FROM ledger.statement_days WHERE partner_id = $1`,
      [p],
    );
    expect(rows.rows[0]).toEqual({ n: "1", entries: "2" });

    // One statement.closed event, written with the day, keyed by its statement id, carrying its summary.
    const july1 = await day(p, "2026-07-01");
    const events = await h.db.query<{
      event_key: string;
      tx_id: string | null;
      sequence: number;
      payload: Uint8Array;
      headers: Record<string, string>;
    }>(
      `SELECT o.event_key, o.tx_id, o.sequence, o.payload, o.headers
         FROM ledger.outbox o JOIN ledger.statement_days d ON d.statement_id = o.event_key
        WHERE o.event_type = 'statement.closed' AND d.partner_id = $1`,
      [p],
    );
    expect(events.rows).toHaveLength(1);
    const row = events.rows[0]!;
    expect(row).toMatchObject({ event_key: july1.statementId, tx_id: null, sequence: 1 });
    const event = fromBinary(StatementEventSchema, new Uint8Array(row.payload));
    expect(row.headers).toEqual({ "event-id": event.eventId, "event-type": "statement.closed" });
    expect(event).toMatchObject({
      eventType: "statement.closed",
      statementId: july1.statementId,
      partnerId: p,
      date: "2026-07-01",
      timeZone: july1.timeZone,
      revision: 1,
      openingBalanceUsd: "0",
      closingBalanceUsd: "7",
      lineCount: 2,
      totalDebitsUsd: "0",
      totalCreditsUsd: "7",
      sha256: july1.sha256,
    });
    expect(timestampDate(event.occurredAt ?? fail()).toISOString()).toBe("2026-07-02T01:00:00.000Z");
    // The relay publishes it keyed by the statement id.
    await waitFor(
      "statement.closed published",
      async () => (h.published.some((m) => m.key === july1.statementId) ? true : undefined),
      10_000,
    );
  });
});

describe("the statement-close job", () => {
  it("closes a partner's due days by itself, after the grace period and not before", async () => {
    let now = new Date("2026-08-01T12:00:00Z");
    const own = await startLedgerHarness(
      { STATEMENT_CLOSE_INTERVAL_MS: "50", STATEMENT_CLOSE_GRACE_MS: String(GRACE_MS) },
      { now: () => now },
    );
    try {
      const client = createClient(
        StatementService,
        createRouterTransport((r) => own.module.routes(r)),
      );
      const p = partner();
      await own.client.creditBalance({ partnerId: p, amountUsd: "12", reference: "wire", ...freshKey() });
      const status = async () =>
        (await client.getDailyStatement({ partnerId: p, date: "2026-08-01" })).statement;
      now = new Date("2026-08-02T00:09:00Z");
      await new Promise((r) => setTimeout(r, 300));
      expect((await status())?.status).toBe("open");
      now = new Date("2026-08-02T00:10:00Z");
      await waitFor("the job to close August 1", async () =>
        (await status())?.status === "closed" ? true : undefined,
      );
      expect(await status()).toMatchObject({ lineCount: 1, closingBalanceUsd: "12" });
    } finally {
      await own.close();
    }
  });
});

const ZONES = [
  "UTC",
  "America/Sao_Paulo",
  "Africa/Lagos",
  "America/New_York",
  "Asia/Kolkata",
  "Pacific/Chatham",
];

type Step =
  | { kind: "credit"; cents: number; gapMin: number }
  | { kind: "payout"; cents: number; gapMin: number }
  | { kind: "fail" | "succeed" | "refund"; pick: number; gapMin: number }
  | { kind: "close"; gapMin: number };

const gap = fc.integer({ min: 0, max: 20 * 60 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("credit" as const),
    cents: fc.integer({ min: 1, max: 50_000 }),
    gapMin: gap,
  }),
  fc.record({
    kind: fc.constant("payout" as const),
    cents: fc.integer({ min: 100, max: 20_000 }),
    gapMin: gap,
  }),
  fc.record({
    kind: fc.constantFrom("fail" as const, "succeed" as const, "refund" as const),
    pick: fc.nat(),
    gapMin: gap,
  }),
  fc.record({ kind: fc.constant("close" as const), gapMin: gap }),
);

describe("property: the balance chains across days", () => {
  it("for random credits, payouts, failures and refunds in random zones, every day holds opening + Σ lines = closing and closing(d) = opening(d+1)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ZONES),
        fc.array(step, { minLength: 3, maxLength: 20 }),
        async (zone, steps) => {
          const p = partner();
          await statements.setStatementSettings({ partnerId: p, timeZone: zone });
          let t = new Date("2026-03-06T18:00:00Z").getTime();
          const processing: string[] = [];
          const succeeded: string[] = [];
          for (const s of steps) {
            t += s.gapMin * 60_000;
            clock = new Date(t);
            if (s.kind === "credit") await credit(p, (s.cents / 100).toFixed(2));
            else if (s.kind === "payout") {
              const txId = await payout(p, (s.cents / 100).toFixed(2)).catch(() => undefined);
              const { transaction } = txId ? await h.client.getTransaction({ partnerId: p, txId }) : {};
              if (txId && transaction?.status === 2) processing.push(txId);
            } else if (s.kind === "fail" || s.kind === "succeed") {
              const [txId] = processing.splice(s.pick % Math.max(processing.length, 1), 1);
              if (!txId) continue;
              await h.client.recordRailResult({ txId, outcome: s.kind === "fail" ? "FAILED" : "SUCCESS" });
              if (s.kind === "succeed") succeeded.push(txId);
            } else if (s.kind === "refund") {
              const [txId] = succeeded.splice(s.pick % Math.max(succeeded.length, 1), 1);
              if (txId) await h.client.refundTransaction({ txId, reason: "r" });
            } else await closeDueDays(h.db, clock, GRACE_MS); // entries still held back move on
          }
          const from = new Date("2026-03-06T00:00:00Z");
          const first = from.toISOString().slice(0, 10);
          const dates = Array.from({ length: Math.ceil((t - from.getTime()) / 86_400_000) + 3 }, (_, i) =>
            new Date(from.getTime() + i * 86_400_000).toISOString().slice(0, 10),
          );
          const check = async () => {
            const days: DailyStatement[] = [];
            for (let i = 0; i < dates.length; i += 31) {
              const range = {
                partnerId: p,
                from: dates[i] ?? first,
                to: dates[Math.min(i + 30, dates.length - 1)] ?? first,
              };
              days.push(...(await statements.listDailyStatements(range)).statements);
            }
            const ids = new Set<string>();
            let previous: DailyStatement | undefined;
            for (const d of days) {
              for (const line of await expectDayConsistent(p, d)) {
                expect(ids.has(line.id), line.id).toBe(false);
                ids.add(line.id);
              }
              if (previous) expect(d.openingBalanceUsd, d.date).toBe(previous.closingBalanceUsd);
              previous = d;
            }
            const { balanceUsd } = await h.client.getBalance({ partnerId: p });
            expect(previous?.closingBalanceUsd).toBe(new Dec(balanceUsd).toFixed());
            const feed = await h.client.listStatementLines({ partnerId: p, after: "", limit: 1000 });
            expect(ids.size).toBe(feed.lines.length);
          };
          // As of the last step (some days open), then once every day has closed.
          await settled();
          await check();
          clock = new Date(t + 4 * 86_400_000);
          await closeAll(clock);
          await check();
        },
      ),
      { numRuns: 20 },
    );
  }, 240_000);
});

function fail(): never {
  throw new Error("missing value");
}
