/**
 * The body of a statement.closed notification: the closed day's frozen summary, serialised once to the
 * exact bytes that are signed and sent. Amounts are USD decimal strings exactly as the daily statement
 * API writes them (`"12.5"`), so a receiver can compare them with the statement it downloads.
 */
import type { StatementEvent } from "@payouts/proto/payouts/events/v1/events_pb";
import { STATEMENT_CLOSED } from "./event-kinds.js";
import { decimal, eventBody, iso, matching, text } from "./payload-fields.js";

const SHA256 = /^[0-9a-f]{64}$/;

/** Builds the signed body for `event`; throws when the event cannot be notified. */
export function buildStatementClosedBody(event: StatementEvent): Buffer {
  return eventBody(event, STATEMENT_CLOSED, () => ({
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
  }));
}
