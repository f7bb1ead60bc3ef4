/**
 * The node-postgres adapter when the server ends sessions under it (pg_terminate_backend: what a fast
 * shutdown or a restart does to every session), on the shared PostgreSQL server. Nothing may reach the
 * process as an uncaught exception; work is retried only when that cannot apply it twice, and otherwise
 * fails as DatabaseUnavailableError (UNAVAILABLE / SERVICE_UNAVAILABLE).
 */
import { Code } from "@connectrpc/connect";
import type { Database } from "@payouts/platform/database/database";
import { DatabaseUnavailableError } from "@payouts/platform/database/database-unavailable";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { freePort } from "../support/free-port.js";
import { createTestDatabase } from "../support/infra.js";
import { watchProcessFaults } from "../support/process-faults.js";

let database: { url: string; drop: () => Promise<void> };
let db: Database & { pool: pg.Pool };
let admin: pg.Client;
const faults = watchProcessFaults();

/** Ends a session as a server shutdown does, and waits until its backend is gone. */
async function terminate(pid: number): Promise<void> {
  const res = await admin.query<{ done: boolean }>("SELECT pg_terminate_backend($1, 10000) AS done", [pid]);
  expect(res.rows[0]?.done).toBe(true);
  // Let the client read the FATAL message and the end of the socket.
  await new Promise((r) => setTimeout(r, 150));
}

async function backendPid(q: { query: Database["query"] }): Promise<number> {
  const res = await q.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
  return res.rows[0]!.pid;
}

beforeAll(async () => {
  database = await createTestDatabase();
  db = createPgDatabase({ connectionString: database.url, maxConnections: 4, reconnectBudgetMs: 3_000 });
  admin = new pg.Client({ connectionString: database.url });
  // Other test files may end sessions on the shared server: a lost test connection fails a query, not the process.
  admin.on("error", () => {});
  await admin.connect();
  await db.exec(`
    CREATE TABLE notes (id int PRIMARY KEY, note text NOT NULL);
    CREATE TABLE slow_commit (id int);
    CREATE FUNCTION sleep_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$;
    CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON slow_commit DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION sleep_at_commit();`);
});

afterAll(async () => {
  await admin?.end();
  await db?.close();
  await database?.drop();
});

beforeEach(async () => {
  await db.query("TRUNCATE notes, slow_commit");
});

afterEach(() => {
  expect(faults.take()).toEqual([]);
});

describe("node-postgres adapter when the server ends a session", () => {
  it("retries a transaction whose connection was lost before COMMIT, and applies it once", async () => {
    let attempts = 0;
    const note = await db.transaction(async (tx) => {
      attempts++;
      await tx.query("INSERT INTO notes (id, note) VALUES (1, $1)", [`attempt ${attempts}`]);
      if (attempts === 1) await terminate(await backendPid(tx));
      const res = await tx.query<{ note: string }>("SELECT note FROM notes WHERE id = 1");
      return res.rows[0]!.note;
    });
    expect(attempts).toBe(2);
    expect(note).toBe("attempt 2");
    const rows = await db.query<{ note: string }>("SELECT note FROM notes");
    expect(rows.rows).toEqual([{ note: "attempt 2" }]);
  });

  it("retries when the session dies while a statement of the transaction runs", async () => {
    let attempts = 0;
    await db.transaction(async (tx) => {
      attempts++;
      const pid = await backendPid(tx);
      await tx.query("INSERT INTO notes (id, note) VALUES (2, 'x')");
      if (attempts === 1) {
        const killer = new Promise((r) => setTimeout(r, 300)).then(() => terminate(pid));
        await Promise.all([tx.query("SELECT pg_sleep(5)"), killer]);
      }
    });
    expect(attempts).toBe(2);
    expect((await db.query("SELECT 1 FROM notes WHERE id = 2")).rowCount).toBe(1);
  });

  it("does not retry when the connection is lost during COMMIT: the outcome is unknown", async () => {
    let attempts = 0;
    let pid = 0;
    const outcome = db
      .transaction(async (tx) => {
        attempts++;
        pid = await backendPid(tx);
        await tx.query("INSERT INTO slow_commit (id) VALUES (1)");
      })
      .then(
        () => "committed",
        (error: unknown) => error,
      );
    // The deferred trigger holds COMMIT for 2 s; end the session while it runs.
    await waitUntil(async () => {
      const res = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query = 'COMMIT'", [
        pid,
      ]);
      return res.rowCount === 1;
    });
    await terminate(pid);
    const error = await outcome;
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as DatabaseUnavailableError).outcome).toBe("unknown");
    expect((error as DatabaseUnavailableError).code).toBe(Code.Unavailable);
    expect(errorDetailOf(error)?.reason).toBe("SERVICE_UNAVAILABLE");
    expect(errorDetailOf(error)?.metadata.retry_after_seconds).toBe("2");
    expect(attempts).toBe(1);
  });

  it("retries a unit declared idempotent even when COMMIT's answer was lost", async () => {
    let attempts = 0;
    let pid = 0;
    const outcome = db.transaction(
      async (tx) => {
        attempts++;
        pid = await backendPid(tx);
        await tx.query("INSERT INTO notes (id, note) VALUES (9, 'once') ON CONFLICT (id) DO NOTHING");
        await tx.query("INSERT INTO slow_commit (id) VALUES (2)");
        return attempts;
      },
      { idempotent: true },
    );
    await waitUntil(async () => {
      const res = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query = 'COMMIT'", [
        pid,
      ]);
      return res.rowCount === 1;
    });
    await terminate(pid);
    expect(await outcome).toBe(2);
    expect((await db.query("SELECT note FROM notes WHERE id = 9")).rows).toEqual([{ note: "once" }]);
  });

  it("says 'unknown', not 'not-applied', when an idempotent unit gives up after a COMMIT whose answer was lost", async () => {
    const impatient = createPgDatabase({
      connectionString: database.url,
      maxConnections: 2,
      reconnectBudgetMs: 0,
    });
    try {
      let pid = 0;
      const outcome = impatient
        .transaction(
          async (tx) => {
            pid = await backendPid(tx);
            await tx.query("INSERT INTO slow_commit (id) VALUES (3)");
          },
          { idempotent: true },
        )
        .then(
          () => "committed",
          (error: unknown) => error,
        );
      await waitUntil(async () => {
        const res = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND query = 'COMMIT'", [
          pid,
        ]);
        return res.rowCount === 1;
      });
      await terminate(pid);
      const error = await outcome;
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as DatabaseUnavailableError).outcome).toBe("unknown");
    } finally {
      await impatient.close();
    }
  });

  it("fails a statement in flight as unavailable (it may have run), and the next one succeeds", async () => {
    const slow = db.query("SELECT pg_sleep(5), pg_backend_pid()").then(
      () => "finished",
      (error: unknown) => error,
    );
    let pid = 0;
    await waitUntil(async () => {
      const res = await admin.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(5)%' AND datname = current_database()",
      );
      pid = res.rows[0]?.pid ?? 0;
      return pid !== 0;
    });
    await terminate(pid);
    const error = await slow;
    expect(error).toBeInstanceOf(DatabaseUnavailableError);
    expect((error as DatabaseUnavailableError).outcome).toBe("unknown");
    expect((await db.query<{ one: number }>("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
  });

  it("replaces idle pooled connections the server ended", async () => {
    const pids = await Promise.all([0, 1, 2].map(() => db.transaction((tx) => backendPid(tx))));
    for (const pid of new Set(pids)) await terminate(pid);
    const again = await Promise.all([0, 1, 2].map(() => db.query("SELECT 1")));
    expect(again.map((r) => r.rowCount)).toEqual([1, 1, 1]);
  });

  it("passes statement errors through unchanged, without retrying", async () => {
    await db.query("INSERT INTO notes (id, note) VALUES (3, 'first')");
    let attempts = 0;
    const error = await db
      .transaction(async (tx) => {
        attempts++;
        await tx.query("INSERT INTO notes (id, note) VALUES (3, 'second')");
      })
      .catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe("23505");
    expect(error).not.toBeInstanceOf(DatabaseUnavailableError);
    expect(attempts).toBe(1);
  });
});

describe("node-postgres adapter when no server answers", () => {
  it("retries within its budget, then reports unavailable without running the work", async () => {
    const nowhere = createPgDatabase({
      connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/postgres`,
      reconnectBudgetMs: 400,
    });
    try {
      let ran = false;
      const started = performance.now();
      const inTx = await nowhere
        .transaction(async () => {
          ran = true;
        })
        .catch((e: unknown) => e);
      expect(performance.now() - started).toBeGreaterThanOrEqual(300);
      const single = await nowhere.query("SELECT 1").catch((e: unknown) => e);
      for (const error of [inTx, single]) {
        expect(error).toBeInstanceOf(DatabaseUnavailableError);
        expect((error as DatabaseUnavailableError).outcome).toBe("not-applied");
        expect(errorDetailOf(error)?.reason).toBe("SERVICE_UNAVAILABLE");
      }
      expect(ran).toBe(false);
    } finally {
      await nowhere.close();
    }
  });
});

async function waitUntil(probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
