/**
 * The body of a statement.closed notification: the closed day's frozen summary, serialised once to the
 * exact bytes that are signed and sent. Amounts are USD decimal strings exactly as the daily statement
 * API writes them (`"12.5"`), so a receiver can compare them with the statement it downloads.
 */
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { StatementEvent } from "@payouts/proto/payouts/events/v1/events_pb";
import { STATEMENT_CLOSED } from "./event-kinds.js";

const DECIMAL = /^-?\d+(\.\d+)?$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** Builds the signed body for `event`; throws when the event cannot be notified. */
export function buildStatementClosedBody(event: StatementEvent): Buffer {
  if (event.eventType !== STATEMENT_CLOSED) {
    throw new Error(`event type ${JSON.stringify(event.eventType)} is not ${STATEMENT_CLOSED}`);
  }
  const body = {
    statement_id: text(event.statementId, "statement_id"),
    partner_id: text(event.partnerId, "partner_id"),
    date: text(event.date, "date"),
    time_zone: text(event.timeZone, "time_zone"),
    period_start: iso(event.periodStart, "period_start"),
    period_end: iso(event.periodEnd, "period_end"),
    revision: event.revision,
    currency: "USD",
    opening_balance_usd: decimal(event.openingBalanceUsd, "opening_balance_usd"),
    closing_balance_usd: decimal(event.closingBalanceUsd, "closing_balance_usd"),
    line_count: event.lineCount,
    total_debits_usd: decimal(event.totalDebitsUsd, "total_debits_usd"),
    total_credits_usd: decimal(event.totalCreditsUsd, "total_credits_usd"),
    sha256: matching(event.sha256, SHA256, "sha256"),
    event_id: text(event.eventId, "event_id"),
    event_type: STATEMENT_CLOSED,
    occurred_at: iso(event.occurredAt, "occurred_at"),
  };
  return Buffer.from(JSON.stringify(body), "utf8");
}

function text(value: string, field: string): string {
  if (value === "") throw new Error(`${field} is missing`);
  return value;
}

function decimal(value: string, field: string): string {
  return matching(value, DECIMAL, field);
}

function matching(value: string, pattern: RegExp, field: string): string {
  if (!pattern.test(value)) throw new Error(`${field} ${JSON.stringify(value)} is not valid`);
  return value;
}

function iso(timestamp: StatementEvent["occurredAt"], field: string): string {
  if (timestamp === undefined) throw new Error(`${field} is missing`);
  return timestampDate(timestamp).toISOString();
}
