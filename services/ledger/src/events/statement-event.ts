/**
 * The outbox payload announcing a closed statement day: a payouts.events.v1.StatementEvent with the day's
 * frozen summary, binary-encoded. Keyed on the bus by the statement id (one event per closed day).
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { newId } from "@payouts/platform/ids";
import { StatementEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { daySummaryFields } from "../proto/day-summary-fields.js";
import type { OutboxRow } from "../store/outbox-store.js";
import type { ClosedDay } from "../store/statement-day-store.js";
import type { EventEnvelope } from "./transaction-event.js";

export const STATEMENT_CLOSED = "statement.closed";

/** The event announcing that `day` closed at `occurredAt`. */
export function statementClosedEvent(
  day: Omit<ClosedDay, "closedAt" | "watermark">,
  eventId: string,
  occurredAt: Date,
): EventEnvelope {
  // The day's fields of the same name (statement id, partner, date, time zone, revision) as they are.
  const event = create(StatementEventSchema, {
    ...day,
    ...daySummaryFields(day.summary),
    eventId,
    eventType: STATEMENT_CLOSED,
    occurredAt: timestampFromDate(occurredAt),
    periodStart: timestampFromDate(day.periodStart),
    periodEnd: timestampFromDate(day.periodEnd),
  });
  return {
    eventId,
    eventType: STATEMENT_CLOSED,
    // The statement id (the bus key) names one revision of one day, announced once.
    sequence: 1,
    payload: toBinary(StatementEventSchema, event),
  };
}

/** The outbox row announcing that `day` closed at `occurredAt`, keyed on the bus by its statement id. */
export function statementClosedOutboxRow(
  day: Omit<ClosedDay, "closedAt" | "watermark">,
  occurredAt: Date,
): Omit<OutboxRow, "id" | "txId"> & { readonly eventKey: string } {
  const event = statementClosedEvent(day, newId("evt"), occurredAt);
  return {
    ...event,
    eventKey: day.statementId,
    headers: { "event-id": event.eventId, "event-type": event.eventType },
  };
}
