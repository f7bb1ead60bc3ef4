import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CSV_COLUMNS, renderCsv } from "./statement-csv.js";
import {
  LINE_FIELDS,
  pagedLinesOf,
  type StatementDocument,
  type StatementLine,
  type StatementSummary,
  SUMMARY_FIELDS,
} from "./statement-document.js";

const SUMMARY: StatementSummary = {
  statement_id: "stmt_20261120_0123456789abcdef0123",
  partner_id: "partner_1",
  date: "2026-11-20",
  time_zone: "UTC",
  period_start: "2026-11-20T00:00:00.000Z",
  period_end: "2026-11-21T00:00:00.000Z",
  status: "open",
  revision: 1,
  restates: null,
  currency: "USD",
  opening_balance_usd: "10",
  closing_balance_usd: "7.5",
  line_count: 0,
  total_debits_usd: "2.5",
  total_credits_usd: "0",
  sha256: "a".repeat(64),
};

/** Text with the characters that decide quoting (comma, quote, CR, LF), spaces and other Unicode. */
const text = fc.string({
  unit: fc.oneof(fc.constantFrom(",", '"', "\r", "\n", " ", "\r\n", "é"), fc.string({ maxLength: 1 })),
  maxLength: 12,
});
const line: fc.Arbitrary<StatementLine> = fc.record({
  id: text,
  type: fc.constantFrom("payout", "fee", "credit"),
  tx_id: fc.option(text),
  partner_transaction_id: fc.option(text),
  amount: fc.option(text),
  currency: fc.option(text),
  exchange_rate: fc.option(text),
  amount_usd: text,
  created_at: text,
  balance_usd: text,
});

/** The whole file as one csv-stringify call over every record: what the renderer must equal. */
function expected(lines: readonly StatementLine[]): string {
  const summaryRow = ["summary", ...SUMMARY_FIELDS.map((f) => SUMMARY[f]), ...LINE_FIELDS.map(() => null)];
  const prefix = SUMMARY_FIELDS.map((f) => (f === "statement_id" || f === "date" ? SUMMARY[f] : null));
  const rows = lines.map((l) => ["line", ...prefix, ...LINE_FIELDS.map((f) => l[f])]);
  return stringify([summaryRow, ...rows], {
    columns: [...CSV_COLUMNS],
    header: true,
    record_delimiter: "windows",
    cast: { number: (value: number) => String(value) },
  });
}

async function rendered(document: StatementDocument): Promise<string> {
  let out = "";
  for await (const chunk of renderCsv(
    (async function* () {
      yield document;
    })(),
  ))
    out += chunk;
  return out;
}

async function* pages<T>(items: readonly T[], size: number): AsyncGenerator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

describe("renderCsv", () => {
  it("writes the bytes csv-stringify writes for the same records, paged or line by line", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 40 }),
        fc.integer({ min: 1, max: 7 }),
        async (lines, size) => {
          const want = expected(lines);
          expect(await rendered({ summary: SUMMARY, lines: pagedLinesOf(pages(lines, size)) })).toBe(want);
          async function* oneByOne() {
            yield* lines;
          }
          expect(await rendered({ summary: SUMMARY, lines: oneByOne() })).toBe(want);
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);
});
