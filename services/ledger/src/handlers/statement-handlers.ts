/**
 * payouts.ledger.v1.StatementService: proto ↔ the daily statement operations.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { DailyStatement, StatementService } from "@payouts/proto/payouts/ledger/v1/statements_pb";
import { missingField } from "../domain/ledger-failure.js";
import { correctStatementDay } from "../operations/correct-statement-day.js";
import {
  type DayStatement,
  dayScaledLinesPage,
  dayStatement,
  dayStatements,
  getTimeZone,
  latestRevision,
  setTimeZone,
  viewRevision,
} from "../operations/daily-statements.js";
import type { LedgerDeps } from "../operations/ledger-deps.js";
import { daySummaryFields } from "../proto/day-summary-fields.js";
import { toScaledLineMessage } from "../proto/statement-line-message.js";
import { mapFailures } from "./ledger-handlers.js";

export function createStatementHandlers(deps: LedgerDeps): ServiceImpl<typeof StatementService> {
  const partner = (partnerId: string) => {
    if (!partnerId) throw missingField("partner_id");
    return partnerId;
  };
  return mapFailures({
    async getStatementSettings(req) {
      const partnerId = partner(req.partnerId);
      return { settings: { partnerId, timeZone: await getTimeZone(deps.db, partnerId) } };
    },

    async setStatementSettings(req) {
      const partnerId = partner(req.partnerId);
      const timeZone = await setTimeZone(deps.db, partnerId, req.timeZone, deps.now());
      return { settings: { partnerId, timeZone } };
    },

    async getDailyStatement(req) {
      const partnerId = partner(req.partnerId);
      const day = await dayStatement(deps.db, partnerId, req.date, deps.now(), req.revision || 1);
      const latest = await latestRevision(deps.db, partnerId, req.date);
      return { statement: toDailyStatementMessage(day), latestRevision: latest };
    },

    async listDailyStatementLines(req) {
      const view = await viewRevision(
        deps.db,
        partner(req.partnerId),
        req.date,
        req.revision || 1,
        deps.now(),
      );
      const page = await dayScaledLinesPage(deps.db, view, req.after, req.limit);
      return { lines: page.lines.map(toScaledLineMessage), nextCursor: page.nextCursor ?? "" };
    },

    async listDailyStatements(req) {
      const days = await dayStatements(deps.db, partner(req.partnerId), req, deps.now());
      return { statements: days.map(toDailyStatementMessage) };
    },

    async correctStatementDay(req) {
      const result = await correctStatementDay(deps, {
        partnerId: req.partnerId,
        date: req.date,
        amountUsd: req.amountUsd,
        note: req.note,
        idempotencyKey: req.idempotencyKey,
        fingerprint: req.requestFingerprint,
        requestId: req.requestId,
      });
      if (!result.replayed) deps.committed();
      return result;
    },
  });
}

function toDailyStatementMessage(day: DayStatement): Omit<DailyStatement, "$typeName"> {
  return {
    statementId: day.statementId,
    date: day.date,
    timeZone: day.timeZone,
    periodStart: timestampFromDate(day.periodStart),
    periodEnd: timestampFromDate(day.periodEnd),
    status: day.status,
    revision: day.revision,
    restates: day.restates ?? "",
    ...daySummaryFields(day.summary),
  };
}
