/**
 * A node:http server that streams one day's statement of `?lines=N` generated lines in `?format=` through
 * the gateway's renderers, piped into the response with back-pressure (`Readable.from` + `pipeline`), as
 * a statement route does. The lines are made as they are read, so the process's memory is the renderer's.
 * Prints `PORT=<n>` when listening.
 */
import { createServer } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type {
  StatementDocument,
  StatementLine,
} from "@payouts/gateway/internal/statements/statement-document";
import { STATEMENT_FORMATS, statementRenderer } from "@payouts/gateway/internal/statements/statement-format";
import { Dec } from "@payouts/platform/money/decimal";

/** Every fourth line is a credit, the others a payout and its fee, as a payout partner's day looks. */
const CREDIT = "2500";
const PAYOUT = "-34.246575342465753425";
const FEE = "-0.813698630136986301";

function amountOf(i: number): string {
  if (i % 4 === 0) return CREDIT;
  return i % 2 === 1 ? PAYOUT : FEE;
}

export function generatedDay(count: number): StatementDocument {
  let credits = new Dec(0);
  let debits = new Dec(0);
  for (let i = 0; i < count; i++) {
    const amount = new Dec(amountOf(i));
    if (amount.isNegative()) debits = debits.plus(amount.abs());
    else credits = credits.plus(amount);
  }
  const opening = new Dec("1000000");
  async function* lines(): AsyncGenerator<StatementLine> {
    let balance = opening;
    for (let i = 0; i < count; i++) {
      const amountUsd = amountOf(i);
      balance = balance.plus(amountUsd);
      const payout = amountUsd === PAYOUT;
      const tx = Math.floor(i / 2);
      yield {
        id: `sl_${1000 + i}_${payout || amountUsd === CREDIT ? 0 : 1}`,
        type: amountUsd === CREDIT ? "credit" : payout ? "payout" : "fee",
        tx_id: amountUsd === CREDIT ? null : `tx_01m7xx97788x0dzdj${String(tx).padStart(7, "0")}`,
        partner_transaction_id: amountUsd === CREDIT ? null : `order-${tx}, "batch" 7`,
        amount: payout ? "50000" : null,
        currency: payout ? "NGN" : null,
        exchange_rate: payout ? "1460" : null,
        amount_usd: amountUsd,
        created_at: "2026-11-20T12:00:00.000Z",
        balance_usd: balance.toFixed(),
      };
    }
  }
  return {
    summary: {
      statement_id: "st_bench_2026-11-20_0",
      partner_id: "partner_bench",
      date: "2026-11-20",
      time_zone: "UTC",
      period_start: "2026-11-20T00:00:00Z",
      period_end: "2026-11-21T00:00:00Z",
      status: "closed",
      revision: 0,
      restates: null,
      currency: "USD",
      opening_balance_usd: opening.toFixed(),
      closing_balance_usd: opening.plus(credits).minus(debits).toFixed(),
      line_count: count,
      total_debits_usd: debits.toFixed(),
      total_credits_usd: credits.toFixed(),
      sha256: "0".repeat(64),
    },
    lines: lines(),
  };
}

async function* one(document: StatementDocument): AsyncGenerator<StatementDocument> {
  yield document;
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  const format = STATEMENT_FORMATS.find((f) => f === url.searchParams.get("format")) ?? "csv";
  const renderer = statementRenderer(format);
  res.writeHead(200, { "content-type": renderer.contentType });
  const body = renderer.render(one(generatedDay(Number(url.searchParams.get("lines") ?? "1000"))), "day");
  pipeline(Readable.from(body), res).catch((error: unknown) => {
    process.stderr.write(`render failed: ${String(error)}\n`);
    res.destroy();
  });
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.stdout.write(`PORT=${typeof address === "object" && address ? address.port : 0}\n`);
});
