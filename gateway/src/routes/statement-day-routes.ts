/**
 * `GET /statements/daily/{date}` and `GET /statements?from=&to=`: daily statements from the ledger's
 * StatementService, rendered while the lines are paged from the ledger (never a whole range in memory), in
 * the format `format` or `Accept` asks for (gateway/src/statements). A closed day's bytes never change:
 * camt.053's message id and creation time come from the statement itself, not from the request. A
 * restated day is answered as it closed, with a `Link` to its next revision (`?revision=`).
 */
import { Readable } from "node:stream";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { DailyStatement as SummaryMessage } from "@payouts/proto/payouts/ledger/v1/statements_pb";
import type { FastifyInstance, FastifyReply } from "fastify";
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
import { linePages } from "../statements/paged-lines.js";
import { pagedLinesOf, type StatementDocument } from "../statements/statement-document.js";
import {
  negotiateStatementFormat,
  type StatementFormat,
  type StatementRenderer,
  type StatementShape,
  statementRenderer,
} from "../statements/statement-format.js";
import { renderLine } from "./statement-routes.js";

/**
 * Lines asked of the ledger per page while a statement is written: a page and the one read ahead stay
 * small enough to be written before V8's next collection of young objects, so they never become old ones
 * (with pages of 5,000, most pages of a 100,000-line day were kept until a full collection).
 */
const LINE_PAGE = 2000;
/**
 * Lines of a ledger page turned into partner lines at a time: few enough that they are written before
 * the next garbage collection of young objects, so they are not copied and kept as old ones.
 */
const RENDER_SLICE = 500;

/** The renderer of `format`; a closed day's renders the same bytes every time. */
function rendererFor(format: StatementFormat, day?: DailyStatementSummary): StatementRenderer {
  const frozen = day?.status === "closed" ? day : undefined;
  return statementRenderer(
    format,
    frozen ? { messageId: () => frozen.sha256.slice(0, 35), now: () => new Date(frozen.period_end) } : {},
  );
}

/** The strong ETag of a closed day in a format: its hash, suffixed for formats other than JSON. */
function etagOf(summary: DailyStatementSummary, renderer: StatementRenderer): string {
  return renderer.format === "json" ? `"${summary.sha256}"` : `"${summary.sha256}-${renderer.format}"`;
}

export function registerStatementDayRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { statements } = deps.clients;

  /**
   * The day's lines, a page at a time, stopped at the summary's line count: lines that became visible
   * after the summary was read come after all of its lines in feed order, so the document stays consistent.
   */
  async function* pagesOf(
    partnerId: string,
    summary: DailyStatementSummary,
  ): AsyncGenerator<StatementLine[]> {
    const read = (after: string, limit: number) =>
      statements.listDailyStatementLines({
        partnerId,
        date: summary.date,
        revision: summary.revision,
        after,
        limit,
      });
    for await (const page of linePages(read, summary.line_count, LINE_PAGE)) {
      for (let i = 0; i < page.length; i += RENDER_SLICE) {
        yield page.slice(i, i + RENDER_SLICE).map(renderLine);
      }
    }
  }

  addRoute(app, getDailyStatement, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const query = readQuery(getDailyStatement.query, request.query);
    const format = negotiateStatementFormat({ format: query.format, accept: request.headers.accept });
    const { date } = request.params;
    const res = await statements.getDailyStatement({ partnerId, date, revision: query.revision ?? 1 });
    const summary = renderSummary(partnerId, res.statement);
    const renderer = rendererFor(format, summary);
    reply.header("Vary", "Accept");
    if (res.latestRevision > summary.revision) {
      const next = `/statements/daily/${summary.date}?revision=${summary.revision + 1}`;
      reply.header("Link", `<${next}>; rel="successor-version"`);
    }
    if (summary.status === "closed") {
      const etag = etagOf(summary, renderer);
      reply.header("ETag", etag);
      if (matches(request.headers["if-none-match"], etag)) return reply.code(304).send();
    }
    const lines = pagedLinesOf(await prefetched(pagesOf(partnerId, summary)));
    const day = (async function* () {
      yield { summary, lines };
    })();
    return stream(reply, renderer, "day", day, `statement-${summary.date}`);
  });

  addRoute(app, listStatements, async (request, reply) => {
    const { partnerId } = partnerOf(request);
    const query = readQuery(listStatements.query, request.query);
    const { from, to } = query;
    const renderer = rendererFor(
      negotiateStatementFormat({ format: query.format, accept: request.headers.accept }),
    );
    const res = await statements.listDailyStatements({ partnerId, from, to });
    const days = res.statements.map((s) => renderSummary(partnerId, s));
    async function* eachDay(): AsyncIterable<StatementDocument> {
      for (const summary of days) yield { summary, lines: pagedLinesOf(pagesOf(partnerId, summary)) };
    }
    reply.header("Vary", "Accept");
    return stream(reply, renderer, "range", eachDay(), `statements-${from}-${to}`);
  });
}

function stream(
  reply: FastifyReply,
  renderer: StatementRenderer,
  shape: StatementShape,
  documents: AsyncIterable<StatementDocument>,
  fileName?: string,
): FastifyReply {
  if (renderer.format !== "json" && fileName) {
    reply.header("Content-Disposition", `attachment; filename="${fileName}.${renderer.fileExtension}"`);
  }
  // One rendered piece read ahead, not Readable.from's default of 16: pieces waiting on a slow client
  // would otherwise outlive V8's collections of young objects and pile up as old ones.
  return reply
    .code(200)
    .type(renderer.contentType)
    .send(Readable.from(renderer.render(documents, shape), { highWaterMark: 1 }));
}

/**
 * The iterable with its first item (a page of lines) already read, so a ledger that does not answer is a proper 503 before
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

function renderSummary(partnerId: string, s: SummaryMessage | undefined): DailyStatementSummary {
  if (!s) throw new Error("ledger answered no statement");
  if (s.status !== "open" && s.status !== "closed") throw new Error(`ledger answered status ${s.status}`);
  return {
    statement_id: s.statementId,
    partner_id: partnerId,
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
