/**
 * `GET /statements/daily/{date}` and `GET /statements?from=&to=`: daily statements from the ledger's
 * StatementService, written out while the lines are paged from the ledger (never a whole range in memory).
 * The handlers only fetch and hand summary and lines to a `StatementWriter`; the format switch (JSON
 * today; CSV or camt.053 later) is `writerFor`.
 */
import { Readable } from "node:stream";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { DailyStatement as SummaryMessage } from "@payouts/proto/payouts/ledger/v1/statements_pb";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { addRoute } from "../api/operation.js";
import { partnerOf } from "../auth/partner-auth.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { readQuery } from "../http/read-query.js";
import type { StatementLine } from "../operations/partner/statement-api.js";
import {
  type DailyStatementSummary,
  getDailyStatement,
  listStatements,
} from "../operations/partner/statement-day-api.js";
import { jsonStatementWriter, type StatementDay, type StatementWriter } from "./statement-json-writer.js";
import { renderLine } from "./statement-routes.js";

/** Lines asked of the ledger per page while a statement is written. */
const LINE_PAGE = 1000;

/** The writer of the response: the one place a `format` (or Accept) choice goes. */
function writerFor(_request: FastifyRequest): StatementWriter {
  return jsonStatementWriter;
}

export function registerStatementDayRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { statements } = deps.clients;

  /**
   * The day's lines, page by page, stopped at the summary's line count: lines that became visible after the
   * summary was read come after all of its lines in feed order, so the document stays consistent.
   */
  async function* linesOf(partnerId: string, summary: DailyStatementSummary): AsyncIterable<StatementLine> {
    let after = "";
    let left = summary.line_count;
    while (left > 0) {
      const page = await statements.listDailyStatementLines({
        partnerId,
        date: summary.date,
        after,
        limit: Math.min(left, LINE_PAGE),
      });
      if (page.lines.length === 0) return;
      for (const line of page.lines.slice(0, left)) yield renderLine(line);
      left -= page.lines.length;
      after = page.nextCursor;
    }
  }

  addRoute(app, getDailyStatement, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const res = await statements.getDailyStatement({ partnerId, date: request.params.date });
    const summary = renderSummary(res.statement);
    if (summary.status === "closed") {
      const etag = `"${summary.sha256}"`;
      reply.header("ETag", etag);
      if (matches(request.headers["if-none-match"], etag)) return reply.code(304).send();
    }
    const writer = writerFor(request);
    return stream(reply, writer, writer.day(summary, await prefetched(linesOf(partnerId, summary))));
  });

  addRoute(app, listStatements, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const { from, to } = readQuery(listStatements.query, request.query);
    const res = await statements.listDailyStatements({ partnerId, from, to });
    const days = res.statements.map(renderSummary);
    async function* eachDay(): AsyncIterable<StatementDay> {
      for (const summary of days) yield { summary, lines: linesOf(partnerId, summary) };
    }
    const writer = writerFor(request);
    return stream(reply, writer, writer.range(eachDay()));
  });
}

function stream(reply: FastifyReply, writer: StatementWriter, chunks: AsyncIterable<string>): FastifyReply {
  return reply.code(200).type(writer.contentType).send(Readable.from(chunks));
}

/**
 * The iterable with its first page already read, so a ledger that does not answer is a proper 503 before
 * the status line is sent rather than a cut-off body.
 */
async function prefetched<T>(source: AsyncIterable<T>): Promise<AsyncIterable<T>> {
  const it = source[Symbol.asyncIterator]();
  const first = await it.next();
  return {
    async *[Symbol.asyncIterator]() {
      if (first.done) return;
      yield first.value;
      for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    },
  };
}

/** If-None-Match holds `etag` (or `*`); the weak form of it matches too, as RFC 9110's weak comparison. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

function renderSummary(s: SummaryMessage | undefined): DailyStatementSummary {
  if (!s) throw new Error("ledger answered no statement");
  if (s.status !== "open" && s.status !== "closed") throw new Error(`ledger answered status ${s.status}`);
  return {
    statement_id: s.statementId,
    date: s.date,
    time_zone: s.timeZone,
    period_start: timestampIso(s.periodStart) ?? "",
    period_end: timestampIso(s.periodEnd) ?? "",
    status: s.status,
    revision: s.revision,
    restates: s.restates || null,
    currency: "USD",
    opening_balance_usd: s.openingBalanceUsd,
    closing_balance_usd: s.closingBalanceUsd,
    line_count: s.lineCount,
    total_debits_usd: s.totalDebitsUsd,
    total_credits_usd: s.totalCreditsUsd,
    sha256: s.sha256,
  };
}
