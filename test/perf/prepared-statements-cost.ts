/**
 * What naming (preparing) a statement saves: the ledger's row-lock read (lockTransaction's text) in
 * BEGIN/read/COMMIT, N times unnamed then N times named, three rounds alternated, on one connection to a
 * scratch database of TEST_DATABASE_URL's server. Prints per run: wall µs, node CPU µs and the PostgreSQL
 * backend's CPU µs (from /proc, so the server must run on this machine).
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:55433/postgres \
 *     node --conditions=source --import tsx test/perf/prepared-statements-cost.ts
 */
import { readdirSync, readFileSync } from "node:fs";
import { addLockedTransaction } from "@payouts/ledger/internal/store/locked-transaction-store";
import { Statement } from "@payouts/ledger/internal/store/statement";
import pg from "pg";

const base = process.env.TEST_DATABASE_URL!;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
const db = `sql_prep_${process.pid}`;
await admin.query(`CREATE DATABASE ${db}`);
const url = base.replace(/\/[^/]*$/, `/${db}`);
const c = new pg.Client({ connectionString: url });
await c.connect();
try {
  await c.query("CREATE SCHEMA ledger");
  const dir = new URL("../../services/ledger/migrations/", import.meta.url);
  for (const f of readdirSync(dir).sort()) await c.query(readFileSync(new URL(f, dir), "utf8"));
  await c.query(
    `INSERT INTO ledger.accounts (partner_id, kind) SELECT 'p', k FROM unnest(ARRAY['balance','in_flight','settled','fees','funding']) k`,
  );
  await c.query(`INSERT INTO ledger.transactions (tx_id, partner_id, status, country_code, currency, destination, event_sequence, pending_expires_at, created_at, updated_at)
    VALUES ('tx1','p','PENDING','BR','BRL','{}',1, now() + interval '1 day', now(), now())`);
  await c.query(`INSERT INTO ledger.status_history VALUES ('tx1',1,NULL,'PENDING','created',now())`);
  // The statement lockTransaction sends, captured rather than copied.
  let sql = "";
  let params: readonly unknown[] = [];
  const capture = {
    query: async (text: string, values?: readonly unknown[]) => {
      sql = text;
      params = values ?? [];
      return { rows: [], rowCount: 0 };
    },
    exec: async () => {},
  };
  const st = new Statement();
  const columns = addLockedTransaction(st, "tx1", { partnerId: "p", balanceIn: ["PENDING"] });
  await st.run(capture as never, `SELECT ${columns} FROM t`);
  const N = Number(process.env.N ?? 3000);
  const run = async (named: boolean) => {
    const pid = (await c.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
    const cpu0 = readBackendCpu(pid);
    const u0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      await c.query("BEGIN");
      const values = params as unknown[];
      await c.query(named ? { name: "lock_read", text: sql, values } : { text: sql, values });
      await c.query("COMMIT");
    }
    const ms = performance.now() - t0;
    const u = process.cpuUsage(u0);
    const cpu1 = readBackendCpu(pid);
    return {
      named,
      usPerQuery: ((ms * 1000) / N).toFixed(0),
      nodeCpuUs: ((u.user + u.system) / N).toFixed(0),
      pgCpuUs: (((cpu1 - cpu0) * 10_000) / N).toFixed(0),
    };
  };
  for (let r = 0; r < 3; r++) {
    console.log(await run(false));
    console.log(await run(true));
  }
} finally {
  await c.end();
  await admin.query(`DROP DATABASE ${db}`);
  await admin.end();
}

function readBackendCpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(stat[11]) + Number(stat[12]); // utime + stime, clock ticks (100/s)
}
