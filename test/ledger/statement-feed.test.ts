/**
 * The statement feed (ListStatementLines) on real PostgreSQL: lines split from entries with their fee, the
 * running balance, cursors, and the guarantee that a reader paging by the returned cursor never misses an
 * entry committed late — where paging by `entry_id > cursor` over the same table does.
 */
import { randomUUID } from "node:crypto";
import { feedEntries } from "@payouts/ledger/internal/store/statement-store";
import { Dec } from "@payouts/platform/money/decimal";
import type { StatementLine } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
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

let h: LedgerHarness;
let seq = 0;
const partner = () => `ptr_feed_${++seq}_${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  h = await startLedgerHarness();
});
afterAll(async () => {
  await assertLedgerInvariants(h.db);
  await h.close();
});

const credit = (partnerId: string, amountUsd: string) =>
  h.client.creditBalance({ partnerId, amountUsd, reference: "wire", ...freshKey() });

/** Pages the feed from `after` until a page comes back empty. */
async function drain(partnerId: string, after: string, limit: number) {
  const lines: StatementLine[] = [];
  let cursor = after;
  for (;;) {
    const page = await h.client.listStatementLines({ partnerId, after: cursor, limit });
    lines.push(...page.lines);
    if (page.lines.length === 0) return { lines, cursor };
    cursor = page.nextCursor;
  }
}

/** Each line's balance is the previous one plus its amount, and the last one is the balance now. */
async function expectChained(partnerId: string, lines: readonly StatementLine[], opening = "0") {
  let running = new Dec(opening);
  for (const line of lines) {
    running = running.plus(line.amountUsd);
    expect(line.balanceAfterUsd, line.id).toBe(running.toFixed());
  }
  const { balanceUsd } = await h.client.getBalance({ partnerId });
  expect(running.toFixed()).toBe(new Dec(balanceUsd).toFixed());
}

async function payout(partnerId: string, reference: string) {
  const created = await h.client.createTransaction({
    partnerId,
    customerId: "cus_1",
    destination: destination(),
    partnerTransactionId: reference,
  });
  const txId = created.transaction?.txId ?? "";
  await h.quoteWith({ partnerId, txId, quote: quote("10", "0.15", "0.3") });
  await h.client.executePayout({
    partnerId,
    txId,
    idempotencyKey: `k-${txId}`,
    requestFingerprint: "1".repeat(64),
    requestId: "req",
  });
  return txId;
}

describe("statement lines", () => {
  it("split each payout-related entry into its amount and its fee, summing to the entry", async () => {
    const p = partner();
    await credit(p, "100");
    const txId = await payout(p, "order-7");
    await h.client.recordRailResult({ txId, outcome: "FAILED", reason: "account closed" });

    const { lines } = await waitFor("five lines", async () => {
      const all = await drain(p, "", 1000);
      return all.lines.length === 5 ? all : undefined;
    });
    expect(lines.map((l) => [l.type, l.amountUsd])).toEqual([
      ["credit", "100"],
      ["payout", "-10"],
      ["fee", "-0.45"],
      ["reversal", "10"],
      ["fee", "0.45"],
    ]);
    expect(lines[0]).toMatchObject({ txId: "", partnerTransactionId: "", currency: "", exchangeRate: "" });
    expect(lines[1]).toMatchObject({
      txId,
      partnerTransactionId: "order-7",
      amount: "15000",
      currency: "NGN",
      exchangeRate: "1500",
    });
    expect(lines[2]).toMatchObject({ txId, partnerTransactionId: "order-7", amount: "", currency: "" });
    expect(new Set(lines.map((l) => l.id)).size).toBe(5);
    await expectChained(p, lines);

    // Page by page with limit 1 (a payout's fee line on its own page) gives the same lines.
    const oneByOne = await drain(p, "", 1);
    expect(oneByOne.lines).toEqual(lines);
    // A finished feed answers its own cursor back, so a poller keeps its place.
    const again = await h.client.listStatementLines({ partnerId: p, after: oneByOne.cursor, limit: 10 });
    expect(again).toMatchObject({ lines: [], nextCursor: oneByOne.cursor });
  });

  it("shows a partner only its own lines", async () => {
    const [a, b] = [partner(), partner()];
    await credit(a, "1");
    await credit(b, "2");
    const lines = await waitFor("a's line", async () => {
      const page = await h.client.listStatementLines({ partnerId: a, after: "", limit: 0 });
      return page.lines.length > 0 ? page.lines : undefined;
    });
    expect(lines.map((l) => l.amountUsd)).toEqual(["1"]);
  });

  it("refuses a malformed cursor and a limit out of range as INVALID_FIELD", async () => {
    const p = partner();
    const forged = Buffer.from(JSON.stringify(["1", "x", 0])).toString("base64url");
    for (const after of ["nope", forged, "W10"]) {
      expect(await reasonOf(h.client.listStatementLines({ partnerId: p, after, limit: 0 }))).toBe(
        "INVALID_FIELD",
      );
    }
    expect(await reasonOf(h.client.listStatementLines({ partnerId: p, after: "", limit: 1001 }))).toBe(
      "INVALID_FIELD",
    );
    expect(await reasonOf(h.client.listStatementLines({ partnerId: p, after: "", limit: -1 }))).toBe(
      "INVALID_FIELD",
    );
    expect(await reasonOf(h.client.listStatementLines({ partnerId: "", after: "", limit: 0 }))).toBe(
      "MISSING_REQUIRED_FIELD",
    );
  });
});

describe("the feed never skips an entry committed late", () => {
  /** A credit written as the ledger writes it, in the caller's transaction, optionally under a given id. */
  async function rawCredit(c: pg.Client, partnerId: string, amount: string, entryId?: string) {
    const movementId = `mv_${randomUUID()}`;
    await c.query(
      `INSERT INTO ledger.movements (movement_id, partner_id, kind, reference) VALUES ($1, $2, 'credit', 'raw')`,
      [movementId, partnerId],
    );
    await c.query(
      `INSERT INTO ledger.entries (entry_id, movement_id, partner_id, kind, amount)
       VALUES (COALESCE($4::bigint, nextval('ledger.entries_entry_id_seq')), $1, $2, 'balance', $3::numeric),
              (nextval('ledger.entries_entry_id_seq'), $1, $2, 'funding', -$3::numeric)`,
      [movementId, partnerId, amount, entryId ?? null],
    );
  }

  /** What paging by `entry_id > cursor` reads: the next rows of the partner's balance entries. */
  async function naivePage(partnerId: string, after: string): Promise<string[]> {
    const res = await h.db.query<{ entry_id: string }>(
      `SELECT entry_id::text FROM ledger.entries
        WHERE partner_id = $1 AND kind = 'balance' AND entry_id > $2::bigint ORDER BY entry_id`,
      [partnerId, after],
    );
    return res.rows.map((r) => r.entry_id);
  }

  it("where paging by id loses a row drawn early and committed after a later one", async () => {
    const p = partner();
    await credit(p, "100");
    const a = new pg.Client({ connectionString: h.url });
    const b = new pg.Client({ connectionString: h.url });
    await a.connect();
    await b.connect();
    try {
      const naiveSeen: string[] = [];
      const naive = async () => {
        const ids = await naivePage(p, naiveSeen.at(-1) ?? "0");
        naiveSeen.push(...ids);
      };
      const first = await waitFor("the opening credit", async () => {
        const page = await h.client.listStatementLines({ partnerId: p, after: "", limit: 100 });
        return page.lines.length === 1 ? page : undefined;
      });
      const feedSeen = [...first.lines];
      let cursor = first.nextCursor;
      await naive();
      expect(naiveSeen).toHaveLength(1);

      // Writer A starts: its entry id is drawn and its transaction id assigned (as a payout's row locks
      // assign it), but its entry is not committed yet.
      await a.query("BEGIN");
      const reserved = (
        await a.query<{ id: string }>("SELECT nextval('ledger.entries_entry_id_seq')::text AS id")
      ).rows[0]?.id;
      await a.query("SELECT pg_current_xact_id()");
      // Writer B draws a later id and commits first.
      await b.query("BEGIN");
      await rawCredit(b, p, "5");
      await b.query("COMMIT");

      await naive();
      expect(naiveSeen).toHaveLength(2);
      // The feed holds B back: A, which began before it, may still write below B's position.
      const held = await h.client.listStatementLines({ partnerId: p, after: cursor, limit: 100 });
      expect(held.lines).toEqual([]);
      expect(held.nextCursor).toBe(cursor);

      // A commits its entry under the id it drew first.
      await rawCredit(a, p, "7", reserved);
      await a.query("COMMIT");

      await naive();
      const all = await naivePage(p, "0");
      expect(all).toHaveLength(3);
      const lost = all.filter((id) => !naiveSeen.includes(id));
      expect(lost).toEqual([reserved]);

      const rest = await waitFor("A's and B's lines", async () => {
        const page = await drain(p, cursor, 100);
        return page.lines.length === 2 ? page : undefined;
      });
      feedSeen.push(...rest.lines);
      cursor = rest.cursor;
      expect(feedSeen.map((l) => l.amountUsd)).toEqual(["100", "7", "5"]);
      expect(new Set(feedSeen.map((l) => l.id)).size).toBe(3);
      await expectChained(p, feedSeen);
    } finally {
      await a.end();
      await b.end();
    }
  });

  it("while concurrent writers post, a reader paging the feed sees every line exactly once", async () => {
    const p = partner();
    await credit(p, "1000");
    const seen: StatementLine[] = [];
    let cursor = "";
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const page = await h.client.listStatementLines({ partnerId: p, after: cursor, limit: 3 });
        seen.push(...page.lines);
        cursor = page.nextCursor;
      }
    })();
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; i < 8; i++) {
        if (i % 4 === 3) {
          const txId = await payout(p, `w${w}-${i}`);
          await h.client.recordRailResult({ txId, outcome: i % 8 === 3 ? "FAILED" : "SUCCESS" });
        } else {
          await credit(p, `${w + 1}.${i}`);
        }
      }
    });
    await Promise.all(writers);
    writing = false;
    await reader;

    const entries = await h.db.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ledger.entries WHERE partner_id = $1 AND kind = 'balance'`,
      [p],
    );
    // Every credit is one line; each of the 8 payout debits and 4 reversals is two (amount and fee).
    const expected = Number(entries.rows[0]?.n) + 8 + 4;
    const done = await waitFor("every line", async () => {
      const more = await drain(p, cursor, 3);
      seen.push(...more.lines);
      cursor = more.cursor;
      return seen.length >= expected ? seen : undefined;
    });
    expect(done).toHaveLength(expected);
    expect(new Set(done.map((l) => l.id)).size).toBe(expected);
    await expectChained(p, done);
    // The order is stable: a fresh read from the start gives the same lines.
    expect((await drain(p, "", 1000)).lines).toEqual(done);
  });
});

describe("checkpoints of the running balance", () => {
  const checkpoints = async (partnerId: string) =>
    (
      await h.db.query<{ xid: string; entry_id: string; balance_before: string }>(
        `SELECT xid::text, entry_id::text, balance_before::text FROM ledger.feed_checkpoints
          WHERE partner_id = $1 ORDER BY xid, entry_id`,
        [partnerId],
      )
    ).rows;
  /** The sum of the partner's balance entries strictly before a position, over the whole history. */
  const sumBefore = async (partnerId: string, xid: string, entryId: string) =>
    (
      await h.db.query<{ s: string }>(
        `SELECT COALESCE(sum(amount), 0)::text AS s FROM ledger.entries
          WHERE partner_id = $1 AND kind = 'balance' AND (xid, entry_id) < ($2::xid8, $3::bigint)`,
        [partnerId, xid, entryId],
      )
    ).rows[0]?.s;

  it("start a page from the nearest checkpoint, recorded once enough entries lie behind it", async () => {
    const p = partner();
    for (let i = 1; i <= 12; i++) await credit(p, `${i}.5`);
    await waitFor("twelve lines", async () => {
      const page = await h.client.listStatementLines({ partnerId: p, after: "", limit: 100 });
      return page.lines.length === 12 ? page : undefined;
    });
    // Page one entry at a time with a spacing of 3: checkpoints land every third entry or so.
    let from: { xid: bigint; entryId: bigint; part: 0 | 1 } | undefined;
    const openings: string[] = [];
    for (;;) {
      const { entries, opening } = await feedEntries(h.db, p, from, 2, 3);
      const next = entries[1];
      openings.push(opening.toFixed());
      if (!next) break;
      from = { xid: next.xid, entryId: next.entryId, part: 0 };
    }
    // Each page's opening is the sum of the credits before it: 0, 1.5, 1.5+2.5, ...
    expect(openings).toEqual(Array.from({ length: 12 }, (_, n) => String((n * (n + 2)) / 2)));
    const saved = await checkpoints(p);
    expect(saved.length).toBeGreaterThanOrEqual(3);
    for (const c of saved) expect(c.balance_before).toBe(await sumBefore(p, c.xid, c.entry_id));
    // The RPC's pages chain from the checkpoints to the balance.
    await expectChained(p, (await drain(p, "", 1)).lines);
  });

  it("records none at a position that is not final yet", async () => {
    const p = partner();
    for (let i = 0; i < 4; i++) await credit(p, "1");
    const open = new pg.Client({ connectionString: h.url });
    await open.connect();
    try {
      // A transaction that has an id and stays open holds the watermark at or below its id.
      await open.query("BEGIN");
      const held = (await open.query<{ xid: string }>("SELECT pg_current_xact_id()::text AS xid")).rows[0]
        ?.xid;
      const forged = { xid: BigInt(held ?? "0") + 1n, entryId: 0n, part: 0 as const };
      await feedEntries(h.db, p, forged, 10, 1);
      expect(await checkpoints(p)).toEqual([]);
    } finally {
      await open.query("ROLLBACK");
      await open.end();
    }
  });
});
