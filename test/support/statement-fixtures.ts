/**
 * Daily statements built in memory for the renderer tests and the bench: the balances, totals and count of
 * each summary follow from its lines, as the ledger's closing computes them.
 */
import { createHash } from "node:crypto";
import type {
  StatementDocument,
  StatementLine,
  StatementSummary,
} from "@payouts/gateway/internal/statements/statement-document";
import { Dec } from "@payouts/platform/money/decimal";

export type LineInput = Pick<StatementLine, "type" | "amount_usd"> & Partial<StatementLine>;

export interface DayInput {
  date: string;
  lines: LineInput[];
  status?: StatementSummary["status"];
}

/** Days in order, each opening at the previous day's closing balance. */
export function statementDays(partnerId: string, opening: string, days: DayInput[]): StatementDocument[] {
  let balance = new Dec(opening);
  let nextEntry = 1;
  return days.map((day) => {
    const dayOpening = balance;
    let credits = new Dec(0);
    let debits = new Dec(0);
    const lines: StatementLine[] = day.lines.map((input) => {
      const amount = new Dec(input.amount_usd);
      balance = balance.plus(amount);
      if (amount.isNegative()) debits = debits.plus(amount.abs());
      else credits = credits.plus(amount);
      const entry = nextEntry++;
      return {
        id: input.id ?? `sl_${entry}_0`,
        type: input.type,
        tx_id: input.tx_id ?? null,
        partner_transaction_id: input.partner_transaction_id ?? null,
        amount: input.amount ?? null,
        currency: input.currency ?? null,
        exchange_rate: input.exchange_rate ?? null,
        amount_usd: input.amount_usd,
        created_at: input.created_at ?? `${day.date}T12:00:00.000Z`,
        balance_usd: balance.toFixed(),
      };
    });
    const summary: StatementSummary = {
      statement_id: `st_${partnerId}_${day.date}_0`,
      partner_id: partnerId,
      date: day.date,
      time_zone: "America/Sao_Paulo",
      period_start: `${day.date}T03:00:00Z`,
      period_end: nextDayStart(day.date),
      status: day.status ?? "closed",
      revision: 0,
      restates: null,
      currency: "USD",
      opening_balance_usd: dayOpening.toFixed(),
      closing_balance_usd: balance.toFixed(),
      line_count: lines.length,
      total_debits_usd: debits.toFixed(),
      total_credits_usd: credits.toFixed(),
      sha256: createHash("sha256").update(JSON.stringify(lines)).digest("hex"),
    };
    return { summary, lines: iterate(lines) };
  });
}

function nextDayStart(date: string): string {
  const next = new Date(`${date}T03:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().replace(".000Z", "Z");
}

async function* iterate<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

/** The documents as a range; each document's lines can be read once, like the ledger's stream. */
export async function* rangeOf(documents: readonly StatementDocument[]): AsyncGenerator<StatementDocument> {
  for (const document of documents) yield document;
}

/** Collects a rendered body into one string. */
export async function renderedText(body: AsyncIterable<string | Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of body)
    text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
