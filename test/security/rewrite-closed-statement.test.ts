/**
 * Attack: rewrite a partner's closed daily statement after the fact — change its summary or hash, drop an
 * entry from it, or move an entry into it — holding the ledger's own database credentials (a compromised
 * ledger process, or a bug in it).
 *
 * On real PostgreSQL, `migrate` (run as the platform runs it) creates the ledger's role with SELECT and
 * INSERT only on the closed-day tables: connected as that role, the closer still closes a day, and every
 * UPDATE or DELETE of a closed day is refused for lack of privilege. Even the schema's owner, who has every
 * privilege, is refused by the append-only triggers; and no one can add an entry to a day once it closed.
 */
import { closeNextDay } from "@payouts/ledger/internal/operations/daily-statements";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { describe, expect, it } from "vitest";
import { attempt, useMigratedRoles } from "../support/migrated-roles.js";

const roles = useMigratedRoles();
const { connect } = roles;

describe("a closed daily statement", () => {
  it("cannot be rewritten with the ledger's credentials, nor by the schema's owner", async () => {
    const ledgerUrl = roles.urls.LEDGER_DATABASE_URL ?? "";
    const ledger = await connect(ledgerUrl);
    const p = "ptr_victim";
    // A credit written as the ledger writes it, on 2026-05-01, and a second one for the next day.
    await ledger.query(
      `INSERT INTO ledger.accounts (partner_id, kind) SELECT $1, k FROM unnest(ARRAY['balance', 'funding']) k`,
      [p],
    );
    for (const [id, at] of [
      ["mv_1", "2026-05-01T10:00:00Z"],
      ["mv_2", "2026-05-02T10:00:00Z"],
    ]) {
      await ledger.query("BEGIN");
      await ledger.query(
        `INSERT INTO ledger.movements (movement_id, partner_id, kind, reference, created_at) VALUES ($1, $2, 'credit', 'w', $3)`,
        [id, p, at],
      );
      await ledger.query(
        `INSERT INTO ledger.entries (movement_id, partner_id, kind, amount, created_at)
         VALUES ($1, $2, 'balance', 50, $3), ($1, $2, 'funding', -50, $3)`,
        [id, p, at],
      );
      await ledger.query("COMMIT");
    }

    // The closer takes only entries below the snapshot watermark; another test's open transaction on the
    // shared server can hold it back for a moment.
    const visible = async () =>
      (
        await ledger.query(
          `SELECT count(*)::int AS n FROM ledger.entries
            WHERE partner_id = $1 AND xid < pg_snapshot_xmin(pg_current_snapshot())`,
          [p],
        )
      ).rows[0]?.n;
    await expect.poll(visible, { timeout: 15_000 }).toBe(4);

    // The closer works with the ledger's role (INSERT only on these tables).
    const db = createPgDatabase({ connectionString: ledgerUrl, maxConnections: 2 });
    try {
      const closed = await closeNextDay(db, p, new Date("2026-05-02T01:00:00Z"), 600_000);
      expect(closed).toMatchObject({ date: "2026-05-01" });
      expect(closed?.summary.lineCount).toBe(1);
    } finally {
      await db.close();
    }
    const before = await ledger.query("SELECT * FROM ledger.statement_days");
    const entriesBefore = await ledger.query("SELECT * FROM ledger.statement_day_entries ORDER BY entry_id");

    const rewrites = {
      summary: "UPDATE ledger.statement_days SET closing_balance = 1000000, opening_balance = 999950",
      hash: `UPDATE ledger.statement_days SET sha256 = repeat('0', 64)`,
      dropDay: "DELETE FROM ledger.statement_days",
      dropEntry: "DELETE FROM ledger.statement_day_entries",
      moveEntry: "UPDATE ledger.statement_day_entries SET statement_id = 'stmt_other'",
    };
    for (const [name, sql] of Object.entries(rewrites)) {
      expect(await attempt(ledger, sql), name).toMatch(/^permission denied for table statement_day/);
    }
    // The owner (the migration role) holds every privilege: the triggers refuse it.
    const owner = await connect(roles.ownerUrl);
    for (const [name, sql] of Object.entries(rewrites)) {
      expect(await attempt(owner, sql), name).toMatch(/^statement_day(s|_entries) is append-only$/);
    }
    // Adding the next day's entry to the closed day is refused: its lines are frozen with its hash.
    const nextEntry = await ledger.query<{ entry_id: string }>(
      `SELECT entry_id::text FROM ledger.entries WHERE movement_id = 'mv_2' AND kind = 'balance'`,
    );
    const plant = `INSERT INTO ledger.statement_day_entries (entry_id, statement_id)
                   VALUES (${nextEntry.rows[0]?.entry_id}, '${before.rows[0]?.statement_id}')`;
    expect(await attempt(ledger, plant)).toMatch(/^statement stmt_\w+ is closed$/);
    expect(await attempt(owner, plant)).toMatch(/^statement stmt_\w+ is closed$/);

    expect((await ledger.query("SELECT * FROM ledger.statement_days")).rows).toEqual(before.rows);
    expect((await ledger.query("SELECT * FROM ledger.statement_day_entries ORDER BY entry_id")).rows).toEqual(
      entriesBefore.rows,
    );
  });
});
