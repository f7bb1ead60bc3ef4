import pg from "pg";
import { readFileSync, readdirSync } from "node:fs";
import { Statement } from "../../services/ledger/src/store/statement.js";
import { addLockedTransaction } from "../../services/ledger/src/store/transaction-store.js";

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
  await c.query(`INSERT INTO ledger.accounts (partner_id, kind) SELECT 'p', k FROM unnest(ARRAY['balance','in_flight','settled','fees','funding']) k`);
  await c.query(`INSERT INTO ledger.transactions (tx_id, partner_id, status, country_code, currency, destination, event_sequence, pending_expires_at, created_at, updated_at)
    VALUES ('tx1','p','PENDING','BR','BRL','{}',1, now() + interval '1 day', now(), now())`);
  await c.query(`INSERT INTO ledger.status_history VALUES ('tx1',1,NULL,'PENDING','created',now())`);
  const st = new Statement();
  const cols = addLockedTransaction(st, "tx1", { partnerId: "p", balanceIn: ["PENDING"] });
  // biome-ignore lint/suspicious/noExplicitAny: measurement script
  const { text, values } = (st as any).build?.(`SELECT ${cols} FROM t`) ?? { text: "", values: [] };
  void text; void values;
  const sql = `WITH t AS MATERIALIZED (SELECT * FROM ledger.transactions WHERE tx_id = $1 AND partner_id = $2 FOR UPDATE),
    b AS MATERIALIZED (SELECT balance FROM ledger.accounts WHERE kind = 'balance' AND partner_id = (SELECT partner_id FROM t WHERE status = ANY($3::text[])) FOR UPDATE)
    SELECT t.*, t.status = ANY($3::text[]) AS balance_locked, (SELECT balance FROM b) AS locked_balance,
    (SELECT COALESCE(json_agg(json_build_array(h.sequence, h.from_status, h.to_status, h.reason, (extract(epoch FROM h.created_at) * 1000)::float8) ORDER BY h.sequence), '[]'::json) FROM ledger.status_history h WHERE h.tx_id = t.tx_id) AS history FROM t`;
  const params = ["tx1", "p", ["PENDING"]];
  const N = Number(process.env.N ?? 3000);
  const run = async (named: boolean) => {
    const pid = (await c.query("SELECT pg_backend_pid() AS pid")).rows[0].pid;
    const cpu0 = readBackendCpu(pid);
    const u0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) {
      await c.query("BEGIN");
      await c.query(named ? { name: "lockread", text: sql, values: params } : { text: sql, values: params });
      await c.query("COMMIT");
    }
    const ms = performance.now() - t0;
    const u = process.cpuUsage(u0);
    const cpu1 = readBackendCpu(pid);
    return { named, usPerQuery: ((ms * 1000) / N).toFixed(0), nodeCpuUs: ((u.user + u.system) / N).toFixed(0), pgCpuUs: (((cpu1 - cpu0) * 10_000) / N).toFixed(0) };
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
