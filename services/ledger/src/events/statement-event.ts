/**
 * The outbox payload announcing a closed statement day: a payouts.events.v1.StatementEvent with the day's
 * frozen summary, binary-encoded. Keyed on the bus by the statement id (one event per closed day).
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { toDecimalString } from "@payouts/platform/money/decimal";
import { StatementEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import type { ClosedDay } from "../store/statement-day-store.js";
import type { EventEnvelope } from "./transaction-event.js";

export const STATEMENT_CLOSED = "statement.closed";

/** The event announcing that `day` closed at `occurredAt`. */
export function statementClosedEvent(
  day: Omit<ClosedDay, "closedAt" | "watermark">,
  eventId: string,
  occurredAt: Date,
): EventEnvelope {
  const s = day.summary;
  const event = create(StatementEventSchema, {
    eventId,
    eventType: STATEMENT_CLOSED,
    occurredAt: timestampFromDate(occurredAt),
    statementId: day.statementId,
    partnerId: day.partnerId,
    date: day.date,
    timeZone: day.timeZone,
    periodStart: timestampFromDate(day.periodStart),
    periodEnd: timestampFromDate(day.periodEnd),
    revision: day.revision,
    openingBalanceUsd: toDecimalString(s.openingBalance),
    closingBalanceUsd: toDecimalString(s.closingBalance),
    lineCount: s.lineCount,
    totalDebitsUsd: toDecimalString(s.totalDebits),
    totalCreditsUsd: toDecimalString(s.totalCredits),
    sha256: s.sha256,
  });
  return {
    eventId,
    eventType: STATEMENT_CLOSED,
    // The statement id (the bus key) names one revision of one day, announced once.
    sequence: 1,
    payload: toBinary(StatementEventSchema, event),
  };
}
