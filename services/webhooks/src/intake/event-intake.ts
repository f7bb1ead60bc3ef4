/**
 * Turns a transaction event from the bus into delivery rows: one per active configuration of the event's
 * partner whose filter matches, all stored with the event id in one transaction. The handler resolves only
 * after that commit, and the bus acknowledges (commits the offset) only after the handler resolved, so an
 * event is never lost; a redelivered event finds its id already processed and creates nothing.
 *
 * An event that can never become a notification (undecodable, no id, money that is not a decimal) is
 * logged and acknowledged: retrying it would block its partition forever and fix nothing.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Database } from "@payouts/platform/database/database";
import type { EventMessage } from "@payouts/platform/events/event-bus";
import { newId } from "@payouts/platform/ids";
import type { Logger } from "@payouts/platform/logging/logger";
import { minorUnits } from "@payouts/platform/money/currencies";
import { currentTraceparent } from "@payouts/platform/telemetry/trace-context";
import { type TransactionEvent, TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { isNotifiedEventType, matchesFilter } from "../domain/event-kinds.js";
import { buildNotificationBody } from "../domain/payload.js";
import { withJitter } from "../domain/retry-policy.js";
import { activeConfigsOf } from "../store/config-store.js";
import { insertDeliveries, markEventProcessed, type NewDelivery } from "../store/delivery-store.js";

/** Fees in notifications are written with 2 decimals (DESIGN.md §8). */
const FEE_DP = 2;

export interface EventIntakeOptions {
  readonly db: Database;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly random: () => number;
  readonly retryScheduleMs: readonly number[];
  /** Called after new deliveries were committed. */
  readonly onStored: () => void;
}

export function createEventIntake(options: EventIntakeOptions): (message: EventMessage) => Promise<void> {
  return async (message) => {
    const decoded = decodeEvent(message);
    if ("problem" in decoded) {
      options.logger.error(
        { key: message.key, headers: message.headers },
        `event skipped: ${decoded.problem}`,
      );
      return;
    }
    const { event, body } = decoded;
    if (body === undefined) return;
    const stored = await storeDeliveries(event, body, options);
    if (stored > 0) options.onStored();
  };
}

type Decoded = { event: TransactionEvent; body: Buffer | undefined } | { problem: string };

function decodeEvent(message: EventMessage): Decoded {
  let event: TransactionEvent;
  try {
    event = fromBinary(TransactionEventSchema, message.value);
  } catch (error) {
    return { problem: `not a TransactionEvent (${(error as Error).message})` };
  }
  if (event.eventId === "") event.eventId = message.headers["event-id"] ?? "";
  if (!/^[\x21-\x2d\x2f-\x7e]{1,200}$/.test(event.eventId)) {
    return {
      problem: `event id ${JSON.stringify(event.eventId)} is missing or not a visible-ASCII id without "."`,
    };
  }
  if (!isNotifiedEventType(event.eventType)) return { event, body: undefined };
  if (event.partnerId === "") return { problem: `event ${event.eventId} has no partner_id` };
  try {
    const amountDp = minorUnits(event.currency);
    const body = buildNotificationBody(
      event,
      amountDp === undefined ? { dp: FEE_DP } : { dp: FEE_DP, amountDp },
    );
    return { event, body };
  } catch (error) {
    return { problem: `event ${event.eventId} cannot be notified: ${(error as Error).message}` };
  }
}

async function storeDeliveries(
  event: TransactionEvent,
  body: Buffer,
  options: EventIntakeOptions,
): Promise<number> {
  const now = options.now();
  // The consumer span (the bus runs this handler inside it): attempts become its children.
  const traceparent = currentTraceparent();
  const occurredAt = event.occurredAt ? timestampDate(event.occurredAt) : undefined;
  const firstDelay = withJitter(options.retryScheduleMs[0] ?? 0, options.random());
  // Idempotent: run again after it committed, it finds the event processed and stores nothing, so a
  // connection lost while COMMIT's answer was awaited is retried at once rather than by the bus.
  return options.db.transaction(
    async (tx) => {
      const fresh = await markEventProcessed(tx, event, now);
      if (!fresh) return 0;
      const configs = (await activeConfigsOf(tx, event.partnerId)).filter((c) =>
        matchesFilter(c.events, event.eventType),
      );
      const deliveries: NewDelivery[] = configs.map((config) => ({
        deliveryId: newId("whd", now.getTime()),
        eventId: event.eventId,
        configId: config.config_id,
        partnerId: event.partnerId,
        txId: event.txId,
        sequence: event.sequence,
        eventType: event.eventType,
        body,
        nextAttemptAt: new Date(now.getTime() + firstDelay),
        traceparent,
        occurredAt,
      }));
      await insertDeliveries(tx, deliveries, now);
      return deliveries.length;
    },
    { idempotent: true },
  );
}
