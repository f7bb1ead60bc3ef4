/**
 * The statement renderers read back by independent parsers: CSV by csv-parse, camt.053 by iso20022.js (an
 * ISO 20022 reader from the registry) and, for the exact decimal text, fast-xml-parser.
 */

import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ApiError } from "@payouts/gateway/internal/http/api-error";
import { StatementMismatchError } from "@payouts/gateway/internal/statements/camt-amounts";
import { renderCamt053 } from "@payouts/gateway/internal/statements/statement-camt053";
import { CSV_COLUMNS, renderCsv } from "@payouts/gateway/internal/statements/statement-csv";
import type {
  StatementDocument,
  StatementLine,
  StatementSummary,
} from "@payouts/gateway/internal/statements/statement-document";
import {
  negotiateStatementFormat,
  STATEMENT_FORMATS,
  statementRenderer,
} from "@payouts/gateway/internal/statements/statement-format";
import { renderJsonDay, renderJsonRange } from "@payouts/gateway/internal/statements/statement-json";
import { Dec } from "@payouts/platform/money/decimal";
import { parse as parseCsv } from "csv-parse/sync";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { CashManagementEndOfDayReport } from "iso20022.js";
import { describe, expect, it } from "vitest";
import { type DayInput, rangeOf, renderedText, statementDays } from "../support/statement-fixtures.js";

const AWKWARD_REFERENCE = 'ord "7", p2\nline 2\r\nline 3';
const LONG_REFERENCE = `inv-${"x".repeat(60)}`;

/** Three days: a busy one with awkward text and 18-decimal amounts, an empty one, and an open one. */
function sampleDays(): DayInput[] {
  return [
    {
      date: "2026-11-20",
      lines: [
        { type: "credit", amount_usd: "1000" },
        {
          type: "payout",
          amount_usd: "-34.246575342465753425",
          tx_id: "tx_01m7xx97788x0dzdjdrxc6tyy1",
          partner_transaction_id: AWKWARD_REFERENCE,
          amount: "50000",
          currency: "NGN",
          exchange_rate: "1460",
        },
        {
          type: "fee",
          amount_usd: "-0.813698630136986301",
          tx_id: "tx_01m7xx97788x0dzdjdrxc6tyy1",
          partner_transaction_id: AWKWARD_REFERENCE,
        },
        {
          type: "payout",
          amount_usd: "-33.333333333333333333",
          tx_id: "tx_01m7xx97788x0dzdjdrxc6tyy2",
          partner_transaction_id: LONG_REFERENCE,
          amount: "7.714285714285714286",
          currency: "BRL",
          exchange_rate: "0.231428571428571429",
        },
        { type: "fee", amount_usd: "0", tx_id: "tx_01m7xx97788x0dzdjdrxc6tyy2" },
        {
          type: "reversal",
          amount_usd: "33.333333333333333333",
          tx_id: "tx_01m7xx97788x0dzdjdrxc6tyy2",
          partner_transaction_id: "ctl\u0001char",
          amount: "7.714285714285714286",
          currency: "BRL",
          exchange_rate: "0.231428571428571429",
        },
      ],
    },
    { date: "2026-11-21", lines: [] },
    {
      date: "2026-11-22",
      status: "open",
      lines: [
        { type: "payout", amount_usd: "-0.000004", partner_transaction_id: "tiny,one" },
        { type: "payout", amount_usd: "-0.000004" },
        { type: "credit", amount_usd: "12345678.123456789012345678" },
      ],
    },
  ];
}

const documents = (days = sampleDays(), opening = "0.000003") => statementDays("partner_a", opening, days);

/** What each day is as plain objects: the summary and its lines, for comparing with what a parser read. */
async function plain(docs: StatementDocument[]): Promise<(StatementSummary & { lines: StatementLine[] })[]> {
  const out = [];
  for (const { summary, lines } of docs) {
    const read: StatementLine[] = [];
    for await (const line of lines) read.push(line);
    out.push({ ...summary, lines: read });
  }
  return out;
}

describe("JSON", () => {
  it("is JSON.stringify of {...summary, lines} for a day, and {statements: [...]} of those for a range", async () => {
    const expected = await plain(documents());
    const range = await renderedText(renderJsonRange(rangeOf(documents())));
    expect(range).toBe(JSON.stringify({ statements: expected }));
    const day = await renderedText(renderJsonDay(rangeOf(documents().slice(0, 1))));
    expect(day).toBe(JSON.stringify(expected[0]));
    const empty = await renderedText(renderJsonRange(rangeOf([])));
    expect(empty).toBe('{"statements":[]}');
  });

  it("refuses a day-shaped render of two days", async () => {
    await expect(renderedText(renderJsonDay(rangeOf(documents())))).rejects.toThrow(/more than one day/);
  });
});

/** Reads the CSV back into the JSON statement's shape. */
function documentsFromCsv(text: string) {
  const rows: Record<string, string>[] = parseCsv(text, { columns: true, record_delimiter: "\r\n" });
  const days: Record<string, unknown>[] = [];
  const orNull = (value: string | undefined) => (value === "" || value === undefined ? null : value);
  for (const row of rows) {
    if (row.record_type === "summary") {
      const summary: Record<string, unknown> = {};
      for (const column of CSV_COLUMNS.slice(1, 17)) summary[column] = orNull(row[column]);
      summary.revision = Number(row.revision);
      summary.line_count = Number(row.line_count);
      days.push({ ...summary, lines: [] });
    } else {
      expect(row.record_type).toBe("line");
      const day = nth(days, days.length - 1);
      expect(row.statement_id).toBe(day.statement_id);
      expect(row.date).toBe(day.date);
      (day.lines as unknown[]).push({
        id: row.line_id,
        type: row.line_type,
        tx_id: orNull(row.tx_id),
        partner_transaction_id: orNull(row.partner_transaction_id),
        amount: orNull(row.amount),
        currency: orNull(row.amount_currency),
        exchange_rate: orNull(row.exchange_rate),
        amount_usd: row.amount_usd,
        created_at: row.created_at,
        balance_usd: row.balance_usd,
      });
    }
  }
  return days;
}

describe("CSV", () => {
  it("reads back with csv-parse equal to the JSON statement, every day in one file", async () => {
    const text = await renderedText(renderCsv(rangeOf(documents())));
    const json = JSON.parse(await renderedText(renderJsonRange(rangeOf(documents())))).statements;
    expect(documentsFromCsv(text)).toEqual(json);
    expect(json.map((day: { lines: unknown[] }) => day.lines.length)).toEqual([6, 0, 3]);
  });

  it("is RFC 4180: one header, CRLF records, quotes doubled inside quoted fields", async () => {
    const text = await renderedText(renderCsv(rangeOf(documents())));
    expect(text.startsWith(`${CSV_COLUMNS.join(",")}\r\n`)).toBe(true);
    expect(text.endsWith("\r\n")).toBe(true);
    expect(text).toContain('"ord ""7"", p2\nline 2\r\nline 3"');
    expect(text).toContain('"tiny,one"');
    expect(text).toContain(",-34.246575342465753425,");
  });

  it("writes only the header for an empty range", async () => {
    expect(await renderedText(renderCsv(rangeOf([])))).toBe(`${CSV_COLUMNS.join(",")}\r\n`);
  });
});

const CAMT_HEADER = { messageId: "msg_test_1", createdAt: new Date("2026-11-23T00:05:00Z") };

function camtTree(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    parseTagValue: false,
    htmlEntities: true,
    isArray: (name) => ["Stmt", "Ntry", "Bal"].includes(name),
  });
  return parser.parse(xml).Document.BkToCstmrStmt;
}

// biome-ignore lint/suspicious/noExplicitAny: a tree fast-xml-parser read; the assertions check its shape
type Xml = any;

/** The i-th item, failing the test where there is none. */
function nth<T>(items: readonly T[], i: number): T {
  const item = items[i];
  if (item === undefined) throw new Error(`no item ${i}`);
  return item;
}

const round5 = (value: string) => new Dec(value).toDecimalPlaces(5, Dec.ROUND_HALF_UP);
const signed = (amount: string, indicator: string) =>
  indicator === "DBIT" ? new Dec(amount).neg() : new Dec(amount);

describe("camt.053.001.08", () => {
  it("is read by iso20022.js: one statement per day, balances, entry count and amounts as the summary and lines", async () => {
    const days = await plain(documents());
    const xml = await renderedText(renderCamt053(rangeOf(documents()), CAMT_HEADER));
    const report = CashManagementEndOfDayReport.fromXML(xml);
    expect(report.messageId).toBe("msg_test_1");
    expect(report.statements).toHaveLength(3);
    report.statements.forEach((statement, i) => {
      const day = nth(days, i);
      expect(statement.account).toEqual({ accountNumber: "partner_a", currency: "USD" });
      expect(statement.numOfEntries).toBe(day.line_count);
      expect(statement.entries).toHaveLength(day.line_count);
      const opening = statement.balances.find((b) => b.type === "OPBD");
      const closing = statement.balances.find((b) => b.type === (day.status === "closed" ? "CLBD" : "ITBD"));
      // iso20022.js reads amounts as floating-point minor units: compare within its rounding.
      expect(opening?.amount).toBeCloseTo(round5(day.opening_balance_usd).times(100).toNumber(), 6);
      expect(closing?.amount).toBeCloseTo(round5(day.closing_balance_usd).times(100).toNumber(), 6);
      statement.entries.forEach((entry, k) => {
        const line = nth(day.lines, k);
        expect(entry.creditDebitIndicator).toBe(new Dec(line.amount_usd).isNegative() ? "debit" : "credit");
        expect(Math.abs(entry.amount / 100 - Math.abs(Number(line.amount_usd)))).toBeLessThanOrEqual(0.00003);
      });
    });
  });

  it("adds up exactly at 5 decimals: opening + credits − debits = closing and Σ entries = each total", async () => {
    const days = await plain(documents());
    const xml = await renderedText(renderCamt053(rangeOf(documents()), CAMT_HEADER));
    const statements = camtTree(xml).Stmt;
    statements.forEach((stmt: Xml, i: number) => {
      const day = nth(days, i);
      const [opening, closing] = stmt.Bal.map((b: Xml) => signed(b.Amt["#text"], b.CdtDbtInd));
      expect(opening.eq(round5(day.opening_balance_usd))).toBe(true);
      expect(closing.eq(round5(day.closing_balance_usd))).toBe(true);
      const entries = (stmt.Ntry ?? []).map((n: Xml) => signed(n.Amt["#text"], n.CdtDbtInd));
      const credits = entries
        .filter((e: Dec) => !e.isNegative())
        .reduce((a: Dec, b: Dec) => a.plus(b), new Dec(0));
      const debits = entries
        .filter((e: Dec) => e.isNegative())
        .reduce((a: Dec, b: Dec) => a.plus(b.abs()), new Dec(0));
      expect(credits.eq(new Dec(stmt.TxsSummry.TtlCdtNtries.Sum))).toBe(true);
      expect(debits.eq(new Dec(stmt.TxsSummry.TtlDbtNtries.Sum))).toBe(true);
      expect(credits.plus(debits).eq(new Dec(stmt.TxsSummry.TtlNtries.Sum))).toBe(true);
      expect(opening.plus(credits).minus(debits).eq(closing)).toBe(true);
      expect(Number(stmt.TxsSummry.TtlNtries.NbOfNtries)).toBe(day.line_count);
      for (const text of (stmt.Ntry ?? []).map((n: Xml) => n.Amt["#text"])) {
        expect(new Dec(text).decimalPlaces()).toBeLessThanOrEqual(5);
      }
      entries.forEach((entry: Dec, k: number) => {
        expect(entry.minus(nth(day.lines, k).amount_usd).abs().lte("0.00003")).toBe(true);
      });
      expect(stmt.AddtlStmtInf).toContain(`sha256=${day.sha256}`);
      expect(stmt.Acct.Ccy).toBe("USD");
    });
  });

  it("maps each line's identifiers, local amount and rate into the entry", async () => {
    const xml = await renderedText(renderCamt053(rangeOf(documents()), CAMT_HEADER));
    const [first] = camtTree(xml).Stmt;
    const [, payout, fee, longRef, , reversal] = first.Ntry;
    expect(payout.AcctSvcrRef).toMatch(/^sl_\d+_0$/);
    expect(payout.Sts.Cd).toBe("BOOK");
    expect(payout.BkTxCd.Prtry.Cd).toBe("payout");
    expect(payout.BookgDt.DtTm).toBe("2026-11-20T12:00:00.000Z");
    expect(payout.ValDt.Dt).toBe("2026-11-20");
    // The CR is written as a character reference, so it survives the XML parser's line-end normalisation.
    expect(payout.NtryDtls.TxDtls.Refs.EndToEndId).toBe(AWKWARD_REFERENCE);
    expect(payout.NtryDtls.TxDtls.Refs.AcctSvcrTxId).toBe("tx_01m7xx97788x0dzdjdrxc6tyy1");
    expect(payout.NtryDtls.TxDtls.AmtDtls.InstdAmt.Amt).toEqual({ "#text": "50000", "@_Ccy": "NGN" });
    expect(payout.NtryDtls.TxDtls.AmtDtls.InstdAmt.CcyXchg).toEqual({
      SrcCcy: "USD",
      TrgtCcy: "NGN",
      UnitCcy: "USD",
      XchgRate: "1460",
    });
    expect(payout.AddtlNtryInf).toContain("amount_usd=-34.246575342465753425");
    expect(fee.NtryDtls.TxDtls.AmtDtls).toBeUndefined();
    expect(longRef.NtryDtls.TxDtls.Refs.EndToEndId).toBe("NOTPROVIDED");
    expect(longRef.NtryDtls.TxDtls.AddtlTxInf).toBe(LONG_REFERENCE);
    expect(longRef.NtryDtls.TxDtls.AmtDtls.InstdAmt.Amt["#text"]).toBe("7.71429");
    expect(longRef.NtryDtls.TxDtls.AmtDtls.InstdAmt.CcyXchg.XchgRate).toBe("0.2314285714");
    expect(reversal.RvslInd).toBe("true");
    expect(reversal.CdtDbtInd).toBe("CRDT");
    expect(reversal.NtryDtls.TxDtls.Refs.EndToEndId).toBe("ctl\uFFFDchar");
  });

  it("keeps many sub-cent 18-decimal lines consistent (rounding carried, never a negative amount)", async () => {
    // A Lehmer (MINSTD) generator from a fixed start: the same 400 lines on every run.
    let state = 7;
    const next = () => {
      state = (state * 48271) % 2147483647;
      return state / 2147483647;
    };
    const digits = (n: number) => Array.from({ length: n }, () => Math.floor(next() * 10)).join("");
    const lines = Array.from({ length: 400 }, () => ({
      type: next() < 0.5 ? ("payout" as const) : ("credit" as const),
      amount_usd: "",
    })).map((line) => ({
      ...line,
      amount_usd: `${line.type === "payout" ? "-" : ""}${Math.floor(next() * 3)}.${digits(18)}`,
    }));
    const days = statementDays("partner_b", "0.000004999999999999", [{ date: "2026-11-24", lines }]);
    const [expected] = await plain(
      statementDays("partner_b", "0.000004999999999999", [{ date: "2026-11-24", lines }]),
    );
    if (!expected) throw new Error("no day");
    const [stmt] = camtTree(await renderedText(renderCamt053(rangeOf(days), CAMT_HEADER))).Stmt;
    const entries = stmt.Ntry.map((n: Xml) => signed(n.Amt["#text"], n.CdtDbtInd));
    const sum = entries.reduce((a: Dec, b: Dec) => a.plus(b), new Dec(0));
    expect(round5(expected.opening_balance_usd).plus(sum).eq(round5(expected.closing_balance_usd))).toBe(
      true,
    );
    entries.forEach((entry: Dec, k: number) => {
      expect(entry.minus(nth(expected.lines, k).amount_usd).abs().lte("0.00003")).toBe(true);
      expect(stmt.Ntry[k].CdtDbtInd).toBe(new Dec(nth(lines, k).amount_usd).isNegative() ? "DBIT" : "CRDT");
    });
  });

  it("refuses to finish a day whose lines contradict its summary", async () => {
    const day = nth(documents(), 0);
    const broken: StatementDocument = { summary: { ...day.summary, line_count: 99 }, lines: day.lines };
    await expect(renderedText(renderCamt053(rangeOf([broken]), CAMT_HEADER))).rejects.toThrow(
      StatementMismatchError,
    );
  });
});

describe("streaming", () => {
  /** A day of `count` lines that records how many have been pulled. */
  function countedDay(count: number) {
    const pulled = { lines: 0 };
    const day = nth(
      statementDays("partner_c", "0", [
        {
          date: "2026-11-25",
          lines: Array.from({ length: count }, () => ({ type: "credit" as const, amount_usd: "1.25" })),
        },
      ]),
      0,
    );
    const source = day.lines;
    async function* counting() {
      for await (const line of source) {
        pulled.lines += 1;
        yield line;
      }
    }
    return { pulled, document: { summary: day.summary, lines: counting() } };
  }

  it.each(["csv", "camt053", "json"] as const)(
    "%s reads lines only as fast as a slow HTTP-like writer takes text",
    async (format) => {
      const { pulled, document } = countedDay(20_000);
      let received = 0;
      let pulledAtFirstWrite = -1;
      const slow = new Writable({
        highWaterMark: 16 * 1024,
        write(chunk, _encoding, callback) {
          if (pulledAtFirstWrite < 0) pulledAtFirstWrite = pulled.lines;
          received += chunk.length;
          setImmediate(callback);
        },
      });
      await pipeline(Readable.from(statementRenderer(format).render(rangeOf([document]))), slow);
      expect(pulled.lines).toBe(20_000);
      expect(received).toBeGreaterThan(20_000 * 20);
      // The first write happens long before the source is drained: the text is not built whole first.
      expect(pulledAtFirstWrite).toBeLessThan(2_000);
    },
  );
});

describe("content negotiation", () => {
  it.each([
    [{ format: "csv", accept: "application/json" }, "csv"],
    [{ format: "camt053" }, "camt053"],
    [{ format: "json", accept: "text/csv" }, "json"],
    [{}, "json"],
    [{ accept: "" }, "json"],
    [{ accept: "*/*" }, "json"],
    [{ accept: "text/csv" }, "csv"],
    [{ accept: "text/*" }, "csv"],
    [{ accept: "application/xml" }, "camt053"],
    [{ accept: "text/xml;q=0.9, text/csv;q=0.5" }, "camt053"],
    [{ accept: "application/json;q=0.1, text/csv" }, "csv"],
  ] as const)("%j → %s", (request, format) => {
    expect(negotiateStatementFormat(request)).toBe(format);
  });

  it("answers 406 NOT_ACCEPTABLE when no format satisfies Accept, 400 INVALID_FIELD for an unknown format", () => {
    const refused = (request: { format?: string; accept?: string }) => {
      try {
        negotiateStatementFormat(request);
      } catch (error) {
        return error instanceof ApiError ? [error.status, error.code, error.field] : error;
      }
      return "accepted";
    };
    expect(refused({ accept: "application/pdf" })).toEqual([406, "NOT_ACCEPTABLE", undefined]);
    expect(refused({ accept: "text/csv;q=0" })).toEqual([406, "NOT_ACCEPTABLE", undefined]);
    expect(refused({ format: "xlsx" })).toEqual([400, "INVALID_FIELD", "format"]);
    expect(refused({ format: "CSV", accept: "text/csv" })).toEqual([400, "INVALID_FIELD", "format"]);
  });

  it("gives each format its media type and file extension", () => {
    expect(
      STATEMENT_FORMATS.map((f) => [statementRenderer(f).contentType, statementRenderer(f).fileExtension]),
    ).toEqual([
      ["application/json; charset=utf-8", "json"],
      ["text/csv; charset=utf-8; header=present", "csv"],
      ["application/xml; charset=utf-8", "xml"],
    ]);
  });
});
