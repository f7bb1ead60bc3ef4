/**
 * Where a listTransactions page's CPU goes, stage by stage, in one process on real PostgreSQL:
 *   TEST_DATABASE_URL=… node --conditions=source --import tsx test/perf/list-cost.ts [--iterations N] [--show]
 * Seeds the platform as the bench does and creates 20 transactions (looked up, quoted and paid, as the
 * bench's page holds), then runs each stage of `GET /listTransactions?limit=20` alone, many times, and
 * prints its CPU µs per page (process.cpuUsage), plus the whole request through the partner routes
 * (inject; in-process router transport; the SQL's client side). A breakdown within one run, for
 * comparing changes on this shared machine; the bench's CPU ms per request is the end-to-end figure.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { renderTransaction } from "@payouts/gateway/internal/http/render-transaction";
import { toTransactionMessage } from "@payouts/ledger/internal/proto/transaction-message";
import { findTransactionWithHistory } from "@payouts/ledger/internal/store/locked-transaction-store";
import { listTransactions } from "@payouts/ledger/internal/store/transaction-store";
import { stringifyJson } from "@payouts/platform/money/json-decimal";
import {
  GetTransactionResponseSchema,
  ListTransactionsResponseSchema,
} from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { AnatomySession } from "./anatomy.js";

const arg = (name: string) => process.argv[process.argv.indexOf(name) + 1];
const iterations = Number(arg("--iterations")) || 2000;
const databaseServerUrl = process.env.TEST_DATABASE_URL;
if (!databaseServerUrl) throw new Error("TEST_DATABASE_URL must name a PostgreSQL server");

const session = await AnatomySession.start({ databaseServerUrl });
try {
  for (let i = 0; i < 20; i++) {
    if (i % 3 === 0) await session.lookedUp();
    else if (i % 3 === 1) await session.quoted();
    else await session.executed();
  }
  const db = session.platform.runtime.db;
  const { rows } = await db.query<{ partner_id: string }>(
    "SELECT partner_id FROM ledger.transactions LIMIT 1",
  );
  const filter = {
    partnerId: rows[0]!.partner_id,
    status: undefined,
    partnerTransactionId: undefined,
    createdFrom: undefined,
    createdTo: undefined,
    after: undefined,
    limit: 21,
  };
  const stored = await listTransactions(db, filter);
  const response = create(ListTransactionsResponseSchema, {
    transactions: stored.map((tx) => toTransactionMessage(tx)),
  });
  const bytes = toBinary(ListTransactionsResponseSchema, response);
  const decoded = fromBinary(ListTransactionsResponseSchema, bytes);
  const page = {
    transactions: decoded.transactions.map((tx) => renderTransaction(tx, 2)),
    next_cursor: null,
  };
  const json = stringifyJson(page);
  process.stdout.write(
    `page: ${stored.length} rows, ${bytes.length} bytes of protobuf, ${json.length} of JSON\n`,
  );
  if (process.argv.includes("--show"))
    process.stdout.write(`${JSON.stringify(page.transactions[0], null, 1)}\n`);

  // getTransaction shares the path: one paid transaction with its history.
  const paid = stored.find((tx) => tx.status === "PROCESSING")!;
  const found = (await findTransactionWithHistory(db, paid.txId, paid.partnerId))!;
  const one = create(GetTransactionResponseSchema, {
    transaction: toTransactionMessage(found.tx, found.history),
  });
  const oneBytes = toBinary(GetTransactionResponseSchema, one);
  process.stdout.write(
    `getTransaction: ${oneBytes.length} bytes of protobuf, history of ${found.history.length}\n`,
  );

  const stages: Record<string, () => unknown> = {
    "ledger: rows → messages (toTransactionMessage × 20)": () => stored.map((tx) => toTransactionMessage(tx)),
    "ledger: toBinary": () => toBinary(ListTransactionsResponseSchema, response),
    "gateway: fromBinary": () => fromBinary(ListTransactionsResponseSchema, bytes),
    "gateway: renderTransaction × 20": () => decoded.transactions.map((tx) => renderTransaction(tx, 2)),
    "gateway: stringifyJson": () => stringifyJson(page),
    "getTransaction: toBinary + fromBinary": () =>
      fromBinary(GetTransactionResponseSchema, toBinary(GetTransactionResponseSchema, one)),
    // Not a stage: what carrying the page as JSON text instead of protobuf would cost (both sides).
    "alternative: JSON.stringify + JSON.parse of the stored rows": () => JSON.parse(JSON.stringify(stored)),
  };
  for (const [name, run] of Object.entries(stages)) {
    for (let i = 0; i < 200; i++) run();
    const start = process.cpuUsage();
    for (let i = 0; i < iterations; i++) run();
    process.stdout.write(`${name}: ${microseconds(process.cpuUsage(start), iterations)} µs\n`);
  }
  const sql = () => listTransactions(db, filter);
  const whole = () =>
    session.platform.runtime.gateway.partnerApp.inject({
      method: "GET",
      url: "/listTransactions?limit=20",
      headers: { authorization: session.authorization },
    });
  const request = (url: string) => () =>
    session.platform.runtime.gateway.partnerApp.inject({
      method: "GET",
      url,
      headers: { authorization: session.authorization },
    });
  for (const [name, run] of [
    ["ledger: SQL and rows (client side)", sql],
    ["whole request in-process", whole],
    ["whole getTransaction in-process", request(`/transactions/${paid.txId}`)],
    ["whole getBalance in-process", request("/balance")],
  ] as const) {
    for (let i = 0; i < 50; i++) await run();
    const n = Math.max(100, iterations / 10);
    const start = process.cpuUsage();
    for (let i = 0; i < n; i++) await run();
    process.stdout.write(`${name}: ${microseconds(process.cpuUsage(start), n)} µs\n`);
  }
} finally {
  await session.close();
}

function microseconds(used: NodeJS.CpuUsage, n: number): string {
  return ((used.user + used.system) / n).toFixed(0);
}
