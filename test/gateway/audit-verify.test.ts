import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { GATEWAY_MIGRATIONS } from "@payouts/gateway/edge";
import { appendAuditRecord } from "@payouts/gateway/internal/audit/audit-store";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../e2e/support/distributed-topology.js";
import { createTestDatabase } from "../support/infra.js";

/**
 * `audit-verify` (services/runtime's CLI) against a real chain that a superuser tampers with, past the
 * append-only triggers (session_replication_role = replica): an edited row, a deleted row, two rows
 * swapped and a removed tail are each reported at the first broken sequence, with exit code 1.
 */
let database: { url: string; drop: () => Promise<void> };
let db: ReturnType<typeof createPgDatabase>;
let superuser: pg.Client;
// biome-ignore lint/suspicious/noExplicitAny: rows as stored
let original: any[];

/** The runtime CLI's `audit-verify`, or (`viaBin`) `payouts audit verify` through the checkout's bin. */
function verify(viaBin = false): { status: number | null; verdict: Record<string, unknown> } {
  const run = spawnSync(
    process.execPath,
    viaBin
      ? [join(REPO_ROOT, "bin", "payouts.mjs"), "audit", "verify"]
      : [
          "--conditions=source",
          "--import",
          "tsx",
          join(REPO_ROOT, "services", "runtime", "src", "cli.ts"),
          "audit-verify",
        ],
    {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? "", DATABASE_URL: database.url, LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  const line = run.stdout.split("\n").find((l) => l.startsWith("{"));
  expect(line, `${run.stdout}${run.stderr}`).toBeDefined();
  return { status: run.status, verdict: JSON.parse(line ?? "{}") };
}

/** Runs `sql` as the superuser with triggers and constraints' triggers off. */
async function tamper(sql: string): Promise<void> {
  await superuser.query("BEGIN");
  try {
    await superuser.query("SET LOCAL session_replication_role = replica");
    await superuser.query(sql);
    await superuser.query("COMMIT");
  } catch (error) {
    await superuser.query("ROLLBACK");
    throw error;
  }
}

/** Puts every record back as it was written. */
async function restore(): Promise<void> {
  await superuser.query("BEGIN");
  await superuser.query("SET LOCAL session_replication_role = replica");
  await superuser.query("DELETE FROM gateway.audit_records");
  await superuser.query(
    `INSERT INTO gateway.audit_records SELECT * FROM jsonb_populate_recordset(NULL::gateway.audit_records, $1::jsonb)`,
    [JSON.stringify(original)],
  );
  await superuser.query("COMMIT");
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPgDatabase({ connectionString: database.url, maxConnections: 2 });
  await migrate(db, GATEWAY_MIGRATIONS);
  for (let i = 1; i <= 6; i++) {
    await appendAuditRecord(db, {
      phase: "finished",
      startedSequence: null,
      at: new Date(Date.UTC(2026, 4, 1, 10, i)).toISOString(),
      actorId: "mc_admin_token",
      actorName: "admin-token",
      actorKind: "machine",
      actorRole: "admin",
      attemptedUser: null,
      sourceAddress: "10.0.0.1",
      userAgent: "test",
      requestId: `req_${i}`,
      method: "POST",
      route: "/admin/partners/:partner_id/balance/credits",
      targetIds: { partner_id: `ptr_${i}` },
      body: `{"amount_usd":"${i}00","reference":"r${i}"}`,
      status: 201,
      errorCode: null,
    });
  }
  superuser = new pg.Client({ connectionString: database.url });
  await superuser.connect();
  original = (await superuser.query("SELECT * FROM gateway.audit_records ORDER BY sequence")).rows;
}, 120_000);

afterAll(async () => {
  await superuser?.end();
  await db?.close();
  await database?.drop();
});

describe("audit-verify", () => {
  it("passes an untouched chain", () => {
    for (const viaBin of [false, true]) {
      const run = verify(viaBin);
      expect(run.verdict).toEqual({ ok: true, verifiedThrough: 6, headSequence: 6 });
      expect(run.status).toBe(0);
    }
  });

  it("finds a row edited by a superuser", async () => {
    await tamper(
      `UPDATE gateway.audit_records SET body = '{"amount_usd":"9900","reference":"r3"}' WHERE sequence = 3`,
    );
    const run = verify();
    expect(run.status).toBe(1);
    expect(run.verdict).toMatchObject({ ok: false, brokenAt: 3, verifiedThrough: 2 });
    expect(run.verdict.problem).toMatch(/changed after it was written/);
    await restore();
    expect(verify().status).toBe(0);
  });

  it("finds a deleted row", async () => {
    await tamper("DELETE FROM gateway.audit_records WHERE sequence = 4");
    const run = verify();
    expect(run.status).toBe(1);
    expect(run.verdict).toMatchObject({ ok: false, brokenAt: 4, problem: "record 4 is missing" });
    await restore();
  });

  it("finds two rows swapped", async () => {
    await tamper(`UPDATE gateway.audit_records SET sequence = 100 WHERE sequence = 2;
                  UPDATE gateway.audit_records SET sequence = 2 WHERE sequence = 5;
                  UPDATE gateway.audit_records SET sequence = 5 WHERE sequence = 100`);
    const run = verify();
    expect(run.status).toBe(1);
    expect(run.verdict).toMatchObject({ ok: false, brokenAt: 2 });
    await restore();
  });

  it("finds a tail removed short of the stored head", async () => {
    await tamper("DELETE FROM gateway.audit_records WHERE sequence >= 5");
    const run = verify();
    expect(run.status).toBe(1);
    expect(run.verdict).toMatchObject({ ok: false, brokenAt: 5, verifiedThrough: 4, headSequence: 6 });
    await restore();
    expect(verify().status).toBe(0);
  });
});
