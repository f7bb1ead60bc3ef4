/**
 * Turns transaction events from the bus into delivery rows, a batch of events at a time: for each event,
 * one row per active configuration of its partner whose filter matches. One transaction of two statements
 * whatever the batch's size: the configurations of the batch's partners are read, then one write records
 * the event ids in the inbox and stores the deliveries of the events not seen before. The handler
 * resolves only after that commit, and the bus acknowledges (commits the offsets) only after the handler resolved,
 * so an event is never lost; a redelivered event finds its id already processed and creates nothing. The
 * rows that may go out at once are stored already claimed by this process (storeEventDeliveries) and sent
 * after the commit; only the others wake the claim passes.
 *
 * An event that can never become a notification (undecodable, no id, money that is not a decimal) is
 * logged and acknowledged: retrying it would block its partition forever and fix nothing.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Database } from "@payouts/platform/database/database";
import type { EventBatchHandler, EventMessage } from "@payouts/platform/events/event-bus";
import { newId } from "@payouts/platform/ids";
import type { Logger } from "@payouts/platform/logging/logger";
import { minorUnits } from "@payouts/platform/money/currencies";
import { type TransactionEvent, TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { isNotifiedEventType, matchesFilter } from "../domain/event-kinds.js";
import { buildNotificationBody } from "../domain/payload.js";
import { withJitter } from "../domain/retry-policy.js";
import { activeConfigsOfPartners, type ConfigRow } from "../store/config-store.js";
import type { ClaimSlots } from "../store/delivery-queue-store.js";
import { type NewDelivery, type StoredDeliveries, storeEventDeliveries } from "../store/delivery-store.js";

/** Fees in notifications are written with 2 decimals (DESIGN.md §8). */
const FEE_DP = 2;

export interface EventIntakeOptions {
  readonly db: Database;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly random: () => number;
  readonly retryScheduleMs: readonly number[];
  /**
   * Runs the store with this process's free claim slots (the delivery worker's claimFresh): rows that may
   * go out at once are stored claimed and sent after the commit.
   */
  readonly claimFresh: (
    store: (slots: ClaimSlots | undefined) => Promise<StoredDeliveries>,
  ) => Promise<StoredDeliveries>;
  /** Called with the configurations of the due rows left for the claim passes, once committed. */
  readonly onStored: (configIds: readonly string[]) => void;
}

export function createEventIntake(options: EventIntakeOptions): EventBatchHandler {
  return async (messages) => {
    const notifiable = new Map<string, Notifiable>();
    for (const message of messages) {
      const decoded = decodeEvent(message);
      if ("problem" in decoded) {
        options.logger.error(
          { key: message.key, headers: message.headers },
          `event skipped: ${decoded.problem}`,
        );
        continue;
      }
      const { event, body } = decoded;
      // The first copy of an event id counts (a batch may carry the same event twice).
      if (body === undefined || notifiable.has(event.eventId)) continue;
      // The consumer span of this message (the traced bus puts it there): attempts become its children.
      notifiable.set(event.eventId, { event, body, traceparent: message.headers.traceparent });
    }
    if (notifiable.size === 0) return;
    const { waiting } = await storeDeliveries([...notifiable.values()], options);
    if (waiting.length > 0) options.onStored(waiting);
  };
}

interface Notifiable {
  readonly event: TransactionEvent;
  readonly body: Buffer;
  readonly traceparent: string | undefined;
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
  events: readonly Notifiable[],
  options: EventIntakeOptions,
): Promise<StoredDeliveries> {
  const now = options.now();
  // One transaction of two statements (the configurations, then one write: inbox, deliveries of the
  // events not seen before, and the claims of those that may go at once), retried on a lost connection:
  // it is idempotent, run again after it committed it finds the events processed and stores nothing.
  return options.claimFresh((slots) =>
    options.db.transaction(
      async (tx) => {
        const configs = await activeConfigsOfPartners(tx, [
          ...new Set(events.map(({ event }) => event.partnerId)),
        ]);
        return storeEventDeliveries(
          tx,
          events.map(({ event }) => event),
          deliveriesOf(events, configs, now, options),
          now,
          slots,
        );
      },
      { idempotent: true },
    ),
  );
}

/** One delivery per (event, active configuration of its partner whose filter matches). */
function deliveriesOf(
  events: readonly Notifiable[],
  configs: readonly ConfigRow[],
  now: Date,
  options: EventIntakeOptions,
): NewDelivery[] {
  return events.flatMap(({ event, body, traceparent }) => {
    const nextAttemptAt = new Date(
      now.getTime() + withJitter(options.retryScheduleMs[0] ?? 0, options.random()),
    );
    const occurredAt = event.occurredAt ? timestampDate(event.occurredAt) : undefined;
    return configs
      .filter((c) => c.partner_id === event.partnerId && matchesFilter(c.events, event.eventType))
      .map((config) => ({
        deliveryId: newId("whd", now.getTime()),
        eventId: event.eventId,
        configId: config.config_id,
        partnerId: event.partnerId,
        txId: event.txId,
        sequence: event.sequence,
        eventType: event.eventType,
        body,
        nextAttemptAt,
        traceparent,
        occurredAt,
      }));
  });
}
