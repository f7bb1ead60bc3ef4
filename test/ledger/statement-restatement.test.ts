/**
 * Restatements on real PostgreSQL: an operator correction of a closed day posts an adjustment on today's
 * open day and stores a new revision of the corrected day naming the original, which stays as it closed.
 * Idempotent by key like a credit; refused for a day not closed and for a negative amount the balance
 * cannot cover (nothing moves).
 */
import { randomUUID } from "node:crypto";
import { type Client, createClient, createRouterTransport } from "@connectrpc/connect";
import { summariseDay } from "@payouts/ledger/internal/domain/statement-days";
import type { StatementLine as DomainLine } from "@payouts/ledger/internal/domain/statement-lines";
import {
  type CorrectStatementDayInput,
  correctStatementDay,
} from "@payouts/ledger/internal/operations/correct-statement-day";
import {
  closeDueDays,
  dayLinesPage,
  dayStatement,
  latestRevision,
  viewRevision,
} from "@payouts/ledger/internal/operations/daily-statements";
import type { LedgerDeps } from "@payouts/ledger/internal/operations/ledger-deps";
import { Dec } from "@payouts/platform/money/decimal";
import { StatementService } from "@payouts/proto/payouts/ledger/v1/statements_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshKey, type LedgerHarness, startLedgerHarness, waitFor } from "./support/ledger-harness.js";
import { assertLedgerInvariants, balanceOf } from "./support/ledger-invariants.js";

const GRACE_MS = 10 * 60_000;
let clock = new Date("2026-04-01T00:00:00Z");
let h: LedgerHarness;
let deps: LedgerDeps;
let statements: Client<typeof StatementService>;

beforeAll(async () => {
  h = await startLedgerHarness(
    { STATEMENT_CLOSE_INTERVAL_MS: "3600000", STATEMENT_CLOSE_GRACE_MS: String(GRACE_MS) },
    { now: () => clock },
  );
  // The operation reads only the database and the clock.
  deps = { db: h.db, now: () => clock } as unknown as LedgerDeps;
  statements = createClient(
    StatementService,
    createRouterTransport((r) => h.module.routes(r)),
  );
});
afterAll(async () => {
  await assertLedgerInvariants(h.db);
  await h.close();
});

async function settled() {
  await waitFor(
    "entries below the watermark",
    async () => {
      const res = await h.db.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM ledger.entries
          WHERE kind = 'balance' AND xid >= pg_snapshot_xmin(pg_current_snapshot())`,
      );
      return res.rows[0]?.n === "0" ? true : undefined;
    },
    30_000,
  );
}

async function credit(partnerId: string, amountUsd: string, when: string) {
  clock = new Date(when);
  await h.client.creditBalance({ partnerId, amountUsd, reference: "wire", ...freshKey() });
}

async function linesOf(partnerId: string, date: string, revision: number): Promise<DomainLine[]> {
  const view = await viewRevision(h.db, partnerId, date, revision, clock);
  return (await dayLinesPage(h.db, view, "", 1000)).lines;
}

const correction = (partnerId: string, date: string, amountUsd: string): CorrectStatementDayInput => ({
  partnerId,
  date,
  amountUsd,
  note: "bank fee refunded",
  idempotencyKey: `key-${randomUUID()}`,
  fingerprint: randomUUID().replaceAll("-", "").padEnd(64, "0"),
  requestId: "req",
});

async function reasonOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "OK";
  } catch (error) {
    return (error as { reason?: string }).reason ?? `UNEXPECTED ${(error as Error).message}`;
  }
}

describe("correcting a closed day", () => {
  it("restates it as revision 2 and 3, the original unchanged, the adjustments posting today", async () => {
    const p = `ptr_restate_${randomUUID().slice(0, 8)}`;
    await credit(p, "100", "2026-04-01T10:00:00Z");
    await credit(p, "20", "2026-04-01T11:00:00Z");
    await credit(p, "7", "2026-04-02T09:00:00Z");
    clock = new Date("2026-04-03T12:00:00Z");
    await settled();
    await closeDueDays(h.db, clock, GRACE_MS);
    const original = await dayStatement(h.db, p, "2026-04-01", clock);
    const originalLines = await linesOf(p, "2026-04-01", 1);
    expect(original).toMatchObject({ status: "closed", revision: 1, restates: undefined });
    expect(original.summary.closingBalance.toFixed()).toBe("120");

    const plus = correction(p, "2026-04-01", "5.25");
    const first = await correctStatementDay(deps, plus);
    expect(first).toMatchObject({ revision: 2, restates: original.statementId, replayed: false });
    expect(await correctStatementDay(deps, plus)).toEqual({ ...first, replayed: true });
    expect(
      await reasonOf(correctStatementDay(deps, { ...plus, amountUsd: "6", fingerprint: "f".repeat(64) })),
    ).toBe("IDEMPOTENCY_KEY_REUSED");
    expect(await balanceOf(h.db, p)).toBe("132.25");

    // The original: same summary, hash and lines; what the day route answers without a revision.
    const again = await dayStatement(h.db, p, "2026-04-01", clock);
    expect(again.summary).toEqual(original.summary);
    expect(again.statementId).toBe(original.statementId);
    expect(await linesOf(p, "2026-04-01", 1)).toEqual(originalLines);
    const rpc = await statements.getDailyStatement({ partnerId: p, date: "2026-04-01" });
    expect(rpc.statement).toMatchObject({ revision: 1, sha256: original.summary.sha256 });
    expect(await latestRevision(h.db, p, "2026-04-01")).toBe(2);

    const r2 = await dayStatement(h.db, p, "2026-04-01", clock, 2);
    expect(r2.statementId).toBe(first.statementId);
    expect(r2.restates).toBe(original.statementId);
    expect(r2.summary.openingBalance.toFixed()).toBe("0");
    expect(r2.summary.closingBalance.toFixed()).toBe("125.25");
    expect(r2.summary.lineCount).toBe(original.summary.lineCount + 1);
    const r2Lines = await linesOf(p, "2026-04-01", 2);
    expect(r2Lines.slice(0, -1)).toEqual(originalLines);
    expect(r2Lines.at(-1)).toMatchObject({ type: "adjustment", balanceAfter: new Dec("125.25") });
    expect(r2.summary.sha256).not.toBe(original.summary.sha256);
    expect(r2.summary).toEqual(summariseDay(new Dec(0), r2Lines));

    const minus = await correctStatementDay(deps, correction(p, "2026-04-01", "-3"));
    expect(minus).toMatchObject({ revision: 3, restates: original.statementId });
    const r3 = await dayStatement(h.db, p, "2026-04-01", clock, 3);
    expect(r3.summary.closingBalance.toFixed()).toBe("122.25");
    expect(r3.summary.lineCount).toBe(original.summary.lineCount + 2);
    expect((await linesOf(p, "2026-04-01", 3)).map((l) => l.amountUsd.toFixed()).slice(-2)).toEqual([
      "5.25",
      "-3",
    ]);

    // Today's open day carries both adjustments; the original series still chains.
    const next = await dayStatement(h.db, p, "2026-04-02", clock);
    expect(next.summary.openingBalance.toFixed()).toBe("120");
    await settled();
    const today = await dayStatement(h.db, p, "2026-04-03", clock);
    expect(today.status).toBe("open");
    expect(today.summary.openingBalance.eq(next.summary.closingBalance)).toBe(true);
    const todayLines = await linesOf(p, "2026-04-03", 1);
    expect(todayLines.map((l) => [l.type, l.amountUsd.toFixed()])).toEqual([
      ["adjustment", "5.25"],
      ["adjustment", "-3"],
    ]);
    const feed = await h.client.listStatementLines({ partnerId: p, after: "", limit: 100 });
    expect(feed.lines.filter((l) => l.type === "adjustment").map((l) => l.amountUsd)).toEqual(["5.25", "-3"]);
    expect(await reasonOf(dayStatement(h.db, p, "2026-04-01", clock, 9))).toBe(
      "STATEMENT_REVISION_NOT_FOUND",
    );

    // The day the adjustments posted on closes with them, opening at the original series' closing.
    clock = new Date("2026-04-04T12:00:00Z");
    await closeDueDays(h.db, clock, GRACE_MS);
    const closedToday = await dayStatement(h.db, p, "2026-04-03", clock);
    expect(closedToday).toMatchObject({ status: "closed", revision: 1 });
    expect(closedToday.summary.openingBalance.toFixed()).toBe("127");
    expect(closedToday.summary.closingBalance.toFixed()).toBe("129.25");
  });

  it("refuses an open day and a negative correction the balance cannot cover, moving nothing", async () => {
    const p = `ptr_restate_${randomUUID().slice(0, 8)}`;
    await credit(p, "10", "2026-05-01T10:00:00Z");
    expect(await reasonOf(correctStatementDay(deps, correction(p, "2026-05-01", "1")))).toBe(
      "STATEMENT_DAY_NOT_CLOSED",
    );
    clock = new Date("2026-05-02T12:00:00Z");
    await settled();
    await closeDueDays(h.db, clock, GRACE_MS);
    expect(await reasonOf(correctStatementDay(deps, correction(p, "2026-05-01", "-10.01")))).toBe(
      "INSUFFICIENT_FUNDS",
    );
    expect(await reasonOf(correctStatementDay(deps, correction(p, "2026-05-01", "0")))).toBe(
      "INVALID_AMOUNT",
    );
    expect(await balanceOf(h.db, p)).toBe("10");
    expect(await latestRevision(h.db, p, "2026-05-01")).toBe(1);
    const moved = await h.db.query(
      `SELECT 1 FROM ledger.movements WHERE partner_id = $1 AND kind = 'adjustment'`,
      [p],
    );
    expect(moved.rowCount).toBe(0);
    // The whole balance may be taken back.
    expect((await correctStatementDay(deps, correction(p, "2026-05-01", "-10"))).revision).toBe(2);
    expect(await balanceOf(h.db, p)).toBe("0");
  });
});
