/**
 * Statements as one ISO 20022 camt.053.001.08 message (BkToCstmrStmt), one `Stmt` per day, streamed by
 * xmlbuilder's callback writer (`begin`, which keeps no tree, only the open elements): the text leaves in
 * pieces of about 64 KiB while the lines are still being read.
 *
 * Version 08 is the one SWIFT's cross-border usage (CBPR+) and most banks' current implementation guides
 * exchange, so ERPs that read any camt.053 read it; later versions add nothing a payout statement uses.
 *
 * Mapping (see camt-amounts.ts for the precision rule):
 * - Acct: Othr/Id = partner_id, Ccy USD, Svcr = this platform.
 * - Bal: OPBD = opening balance; CLBD = closing balance of a closed day, ITBD (interim booked) while the day
 *   is still open. Both dated with the statement's local date.
 * - TxsSummry: TtlNtries NbOfNtries/Sum/TtlNetNtry, TtlCdtNtries Sum, TtlDbtNtries Sum (the summary does
 *   not split the count by side, and the entries come after it, so those counts are left out).
 * - Ntry per line: NtryRef and AcctSvcrRef = line id, Amt Ccy="USD", CdtDbtInd by sign, RvslInd on a
 *   reversal, Sts/Cd BOOK, BookgDt/DtTm = created_at, ValDt/Dt = statement date, BkTxCd/Prtry/Cd = line
 *   type; NtryDtls/TxDtls: Refs EndToEndId = partner_transaction_id (NOTPROVIDED, and the reference in
 *   AddtlTxInf, when it is over 35 characters) and AcctSvcrTxId = tx_id; AmtDtls/InstdAmt = local amount
 *   with CcyXchg (USD → currency, rate per 1 USD) where the line has them. AddtlNtryInf holds the exact
 *   USD amount and balance after the line.
 * - AddtlStmtInf: sha256, statement_id, revision, status and restates.
 * Characters XML 1.0 cannot carry (control characters other than tab and newlines) become U+FFFD.
 */
import { Dec } from "@payouts/platform/money/decimal";
import { begin, type XMLDocumentCB } from "xmlbuilder";
import {
  type CamtFigure,
  CamtStatementAmounts,
  camtAmountText,
  camtFigure,
  roundCamt,
} from "./camt-amounts.js";
import type { StatementDocument, StatementLine, StatementSummary } from "./statement-document.js";

export const CAMT053_NAMESPACE = "urn:iso:std:iso:20022:tech:xsd:camt.053.001.08";
/** Who services the accounts, as Acct/Svcr names it. */
export const ACCOUNT_SERVICER_ID = "PAYOUTS";
/** Issuer of the proprietary bank transaction codes (the line types). */
const LINE_TYPE_ISSUER = "PAYOUTS";
const NOT_PROVIDED = "NOTPROVIDED";
/** A rate (BaseOneRate) has at most 11 digits, 10 of them after the point. */
const RATE_TOTAL_DIGITS = 11;
const RATE_FRACTION_DIGITS = 10;
/** Text is handed on once this much has built up, and after the last element. */
const FLUSH_CHARS = 64 * 1024;

export interface Camt053Header {
  /** GrpHdr/MsgId: at most 35 characters, unique per message. */
  messageId: string;
  /** GrpHdr/CreDtTm and each Stmt/CreDtTm. */
  createdAt: Date;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find the characters XML 1.0 forbids
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** The text with every character XML 1.0 cannot represent replaced by U+FFFD. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML_CHAR, "\uFFFD");
}

function fitsMax35(text: string): boolean {
  return [...text].length <= 35;
}

/** The exchange rate as a BaseOneRate, or undefined where its integer part alone is over 11 digits. */
export function camtRate(rate: string): string | undefined {
  const value = new Dec(rate);
  const integerDigits = value.trunc().isZero() ? 0 : value.trunc().abs().toFixed().length;
  if (integerDigits > RATE_TOTAL_DIGITS) return undefined;
  const places = Math.min(RATE_FRACTION_DIGITS, RATE_TOTAL_DIGITS - integerDigits);
  const rounded = value.toDecimalPlaces(places, Dec.ROUND_HALF_UP);
  // Rounding up can add an integer digit (99999999999.5 → 100000000000).
  return rounded.trunc().abs().toFixed().length > RATE_TOTAL_DIGITS ? undefined : rounded.toFixed();
}

type Builder = XMLDocumentCB;

function leaf(xml: Builder, name: string, text: string, attributes?: Record<string, string>): void {
  xml.ele(name, attributes ?? {}, xmlText(text)).up();
}

function figure(xml: Builder, amountElement: string, value: CamtFigure, currency?: string): void {
  leaf(xml, amountElement, value.amount, currency ? { Ccy: currency } : undefined);
  leaf(xml, "CdtDbtInd", value.indicator);
}

function balance(xml: Builder, code: string, value: Dec, date: string): void {
  xml.ele("Bal").ele("Tp").ele("CdOrPrtry");
  leaf(xml, "Cd", code);
  xml.up().up();
  figure(xml, "Amt", camtFigure(value), "USD");
  xml.ele("Dt");
  leaf(xml, "Dt", date);
  xml.up().up();
}

function statementId(summary: StatementSummary): string {
  return fitsMax35(summary.statement_id) ? summary.statement_id : `${summary.date}-r${summary.revision}`;
}

function statementHead(
  xml: Builder,
  summary: StatementSummary,
  amounts: CamtStatementAmounts,
  createdAt: string,
) {
  xml.ele("Stmt");
  leaf(xml, "Id", statementId(summary));
  leaf(xml, "CreDtTm", createdAt);
  xml.ele("FrToDt");
  leaf(xml, "FrDtTm", summary.period_start);
  leaf(xml, "ToDtTm", summary.period_end);
  xml.up();
  xml.ele("Acct").ele("Id").ele("Othr");
  leaf(xml, "Id", summary.partner_id);
  xml.up().up();
  leaf(xml, "Ccy", summary.currency);
  xml.ele("Svcr").ele("FinInstnId").ele("Othr");
  leaf(xml, "Id", ACCOUNT_SERVICER_ID);
  xml.up().up().up().up();
  balance(xml, "OPBD", amounts.opening, summary.date);
  balance(xml, summary.status === "closed" ? "CLBD" : "ITBD", amounts.closing, summary.date);
  xml.ele("TxsSummry").ele("TtlNtries");
  leaf(xml, "NbOfNtries", String(summary.line_count));
  leaf(xml, "Sum", camtAmountText(amounts.totalCredits.plus(amounts.totalDebits)));
  xml.ele("TtlNetNtry");
  figure(xml, "Amt", camtFigure(amounts.closing.minus(amounts.opening)));
  xml.up().up();
  xml.ele("TtlCdtNtries");
  leaf(xml, "Sum", camtAmountText(amounts.totalCredits));
  xml.up().ele("TtlDbtNtries");
  leaf(xml, "Sum", camtAmountText(amounts.totalDebits));
  xml.up().up();
}

function entry(xml: Builder, summary: StatementSummary, line: StatementLine, value: CamtFigure): void {
  xml.ele("Ntry");
  leaf(xml, "NtryRef", line.id);
  figure(xml, "Amt", value, "USD");
  if (line.type === "reversal") leaf(xml, "RvslInd", "true");
  xml.ele("Sts");
  leaf(xml, "Cd", "BOOK");
  xml.up().ele("BookgDt");
  leaf(xml, "DtTm", line.created_at);
  xml.up().ele("ValDt");
  leaf(xml, "Dt", summary.date);
  xml.up();
  leaf(xml, "AcctSvcrRef", line.id);
  xml.ele("BkTxCd").ele("Prtry");
  leaf(xml, "Cd", line.type);
  leaf(xml, "Issr", LINE_TYPE_ISSUER);
  xml.up().up();
  transactionDetails(xml, line);
  leaf(xml, "AddtlNtryInf", `amount_usd=${line.amount_usd} balance_usd=${line.balance_usd}`);
  xml.up();
}

function transactionDetails(xml: Builder, line: StatementLine): void {
  const reference = line.partner_transaction_id;
  const local = line.amount !== null && line.currency !== null ? line.amount : null;
  if (reference === null && line.tx_id === null && local === null) return;
  xml.ele("NtryDtls").ele("TxDtls");
  if (reference !== null || line.tx_id !== null) {
    xml.ele("Refs");
    if (reference !== null) leaf(xml, "EndToEndId", fitsMax35(reference) ? reference : NOT_PROVIDED);
    if (line.tx_id !== null && fitsMax35(line.tx_id)) leaf(xml, "AcctSvcrTxId", line.tx_id);
    xml.up();
  }
  if (local !== null && line.currency !== null) {
    xml.ele("AmtDtls").ele("InstdAmt");
    leaf(xml, "Amt", camtAmountText(roundCamt(new Dec(local).abs())), { Ccy: line.currency });
    const rate = line.exchange_rate === null ? undefined : camtRate(line.exchange_rate);
    if (rate !== undefined) {
      xml.ele("CcyXchg");
      leaf(xml, "SrcCcy", "USD");
      leaf(xml, "TrgtCcy", line.currency);
      leaf(xml, "UnitCcy", "USD");
      leaf(xml, "XchgRate", rate);
      xml.up();
    }
    xml.up().up();
  }
  if (reference !== null && !fitsMax35(reference)) leaf(xml, "AddtlTxInf", reference);
  xml.up().up();
}

function statementInfo(summary: StatementSummary): string {
  const parts = [
    `sha256=${summary.sha256}`,
    `statement_id=${summary.statement_id}`,
    `revision=${summary.revision}`,
    `status=${summary.status}`,
  ];
  if (summary.restates !== null) parts.push(`restates=${summary.restates}`);
  return parts.join(" ");
}

/** The camt.053 message of a range, streamed. Throws StatementMismatchError if a day's lines contradict its summary. */
export async function* renderCamt053(
  range: AsyncIterable<StatementDocument>,
  header: Camt053Header,
): AsyncGenerator<string> {
  const chunks: string[] = [];
  let buffered = 0;
  const xml = begin({}, (chunk: string) => {
    chunks.push(chunk);
    buffered += chunk.length;
  });
  const take = (): string => {
    const text = chunks.join("");
    chunks.length = 0;
    buffered = 0;
    return text;
  };
  const createdAt = header.createdAt.toISOString();
  xml.dec("1.0", "UTF-8").ele("Document", { xmlns: CAMT053_NAMESPACE }).ele("BkToCstmrStmt");
  xml.ele("GrpHdr");
  leaf(xml, "MsgId", header.messageId);
  leaf(xml, "CreDtTm", createdAt);
  xml.up();
  for await (const { summary, lines } of range) {
    const amounts = new CamtStatementAmounts(summary);
    statementHead(xml, summary, amounts, createdAt);
    for await (const line of lines) {
      entry(xml, summary, line, amounts.entry(line.amount_usd));
      if (buffered >= FLUSH_CHARS) yield take();
    }
    amounts.finish();
    leaf(xml, "AddtlStmtInf", statementInfo(summary));
    xml.up();
  }
  xml.up().up().end();
  yield take();
}
