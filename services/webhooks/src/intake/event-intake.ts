/**
 * Turns events from the bus into delivery rows, a batch of events at a time: for each event,
 * one row per active configuration of its partner whose filter matches, all stored with the event ids in
 * one transaction (three statements, whatever the batch's size). The handler resolves only after that
 * commit, and the bus acknowledges (commits the offsets) only after the handler resolved, so an event is
 * never lost; a redelivered event finds its id already processed and creates nothing.
 *
 * Before anything else, each message's signature is checked (event-signature.ts): only what the ledger
 * signed becomes a delivery. A refused message is logged, counted and acknowledged, never stored.
 *
 * The Kafka header event-type says which message a payload is before it is decoded: statement.closed is a
 * StatementEvent (its deliveries ordered by statement id, as a transaction's are by tx id), batch.completed
 * a BatchEvent (ordered by batch id), anything else a TransactionEvent.
 *
 * batch.completed waits for its items' events (ordering.ts `batchCompletedHold`): an item's deliveries carry
 * its batch id, and each batch's tally counts the final item events consumed (transaction.success or
 * transaction.failed with a batch id) against the count the batch event announces, in the transaction that
 * stores the deliveries, whichever of the two is consumed first.
 *
 * An event that can never become a notification (undecodable, no id, money that is not a decimal) is
 * logged and acknowledged: retrying it would block its partition forever and fix nothing.
 */
import { fromBinary, type Message } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { type Timestamp, timestampDate } from "@bufbuild/protobuf/wkt";
import type { Database } from "@payouts/platform/database/database";
import type { EventBatchHandler, EventMessage } from "@payouts/platform/events/event-bus";
import type { EventVerifier, RefusalReason } from "@payouts/platform/events/event-signature";
import { monotonicIds } from "@payouts/platform/ids";
import type { Logger } from "@payouts/platform/logging/logger";
import { minorUnits } from "@payouts/platform/money/currencies";
import {
  type BatchEvent,
  BatchEventSchema,
  type StatementEvent,
  StatementEventSchema,
  TransactionEventSchema,
} from "@payouts/proto/payouts/events/v1/events_pb";
import type { Preclaim } from "../delivery/delivery-worker.js";
import { buildBatchCompletedBody } from "../domain/batch-payload.js";
import {
  BATCH_COMPLETED,
  isTransactionEventType,
  matchesFilter,
  STATEMENT_CLOSED,
} from "../domain/event-kinds.js";
import { buildNotificationBody } from "../domain/payload.js";
import { withJitter } from "../domain/retry-policy.js";
import { buildStatementClosedBody } from "../domain/statement-payload.js";
import { activeConfigsOfPartners } from "../store/config-store.js";
import type { ClaimedDelivery } from "../store/delivery-queue-store.js";
import {
  addToBatchTallies,
  insertDeliveries,
  markEventsProcessed,
  type NewDelivery,
  type PreclaimOptions,
} from "../store/delivery-store.js";

/** Fees in notifications are written with 2 decimals. */
const FEE_DP = 2;

export interface EventIntakeOptions {
  readonly db: Database;
  readonly logger: Logger;
  readonly now: () => Date;
  readonly random: () => number;
  readonly retryScheduleMs: readonly number[];
  /** Called after new deliveries were committed pending (for the claim; those handed over are not). */
  readonly onStored: () => void;
  /** Tells the ledger's events from anything else on the topic. */
  readonly verifier: EventVerifier;
  /** Called for each message refused by the verifier. */
  readonly onRefused?: (reason: RefusalReason) => void;
  /**
   * The delivery worker's free slots, if it has any: the deliveries it can send at once are stored claimed
   * by it and handed over after the commit, with no claim statement in between (insertDeliveries).
   */
  readonly preclaim?: (wanted: number) => Preclaim | undefined;
}

export function createEventIntake(options: EventIntakeOptions): EventBatchHandler {
  return async (messages) => {
    const notifiable = new Map<string, Notifiable>();
    for (const message of messages) {
      const verified = options.verifier.verify(message);
      if (!verified.ok) {
        // Named by what the sender claims; the body and the signature are not logged.
        options.logger.warn(
          {
            key: message.key,
            eventId: message.headers["event-id"],
            eventType: message.headers["event-type"],
            reason: verified.reason,
          },
          `event refused: ${verified.problem}`,
        );
        options.onRefused?.(verified.reason);
        continue;
      }
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
    const pending = await storeDeliveries([...notifiable.values()], options);
    if (pending > 0) options.onStored();
  };
}

interface Notifiable {
  readonly event: IntakeEvent;
  readonly body: Buffer;
  readonly traceparent: string | undefined;
}

/** What intake needs of any event: who gets it and how its deliveries are ordered. */
interface IntakeEvent {
  eventId: string;
  readonly eventType: string;
  readonly partnerId: string;
  /** Deliveries of one (configuration, orderKey) go out in sequence order: a tx, statement or batch id. */
  readonly orderKey: string;
  readonly sequence: bigint;
  readonly occurredAt: Timestamp | undefined;
  /** An item event's batch (TransactionEvent.batch_id), stored on its deliveries. */
  readonly batchId?: string;
  /** What this event adds to its batch's tally, if anything. */
  readonly tally?: { readonly batchId: string; readonly itemsFinal: number; readonly itemsExpected?: number };
}

type Decoded = { event: IntakeEvent; body: Buffer | undefined } | { problem: string };

const EVENT_ID = /^[\x21-\x2d\x2f-\x7e]{1,200}$/;

function decodeEvent(message: EventMessage): Decoded {
  const eventType = message.headers["event-type"];
  if (eventType === STATEMENT_CLOSED) return decodeOwnEvent(message, STATEMENT_CLOSED_EVENT);
  if (eventType === BATCH_COMPLETED) return decodeOwnEvent(message, BATCH_COMPLETED_EVENT);
  return decodeTransactionEvent(message);
}

function badEventId(eventId: string): Decoded | undefined {
  if (EVENT_ID.test(eventId)) return undefined;
  return { problem: `event id ${JSON.stringify(eventId)} is missing or not a visible-ASCII id without "."` };
}

/** The fields intake reads of an event type that has a message of its own. */
interface OwnEventFields {
  eventId: string;
  readonly eventType: string;
  readonly partnerId: string;
  readonly occurredAt?: Timestamp | undefined;
}

/**
 * An event type with a message of its own, one event per thing it reports (statement.closed: a statement,
 * batch.completed: a batch): its deliveries are ordered by that thing's id.
 */
interface OwnEventKind<M extends Message & OwnEventFields> {
  readonly eventType: string;
  readonly schema: GenMessage<M>;
  /** The id that orders the deliveries, and its field's name for the message saying it is missing. */
  readonly orderKey: (event: M) => string;
  readonly orderKeyField: string;
  readonly tally?: (event: M) => NonNullable<IntakeEvent["tally"]>;
  readonly buildBody: (event: M) => Buffer;
}

const STATEMENT_CLOSED_EVENT: OwnEventKind<StatementEvent> = {
  eventType: STATEMENT_CLOSED,
  schema: StatementEventSchema,
  orderKey: (event) => event.statementId,
  orderKeyField: "statement_id",
  buildBody: buildStatementClosedBody,
};

const BATCH_COMPLETED_EVENT: OwnEventKind<BatchEvent> = {
  eventType: BATCH_COMPLETED,
  schema: BatchEventSchema,
  orderKey: (event) => event.batchId,
  orderKeyField: "batch_id",
  tally: (event) => ({ batchId: event.batchId, itemsFinal: 0, itemsExpected: event.executedItems }),
  buildBody: buildBatchCompletedBody,
};

function decodeOwnEvent<M extends Message & OwnEventFields>(
  message: EventMessage,
  kind: OwnEventKind<M>,
): Decoded {
  let decoded: M;
  try {
    decoded = fromBinary(kind.schema, message.value);
  } catch (error) {
    return { problem: `not a ${kind.schema.name} (${(error as Error).message})` };
  }
  const eventId = decoded.eventId || (message.headers["event-id"] ?? "");
  const bad = badEventId(eventId);
  if (bad) return bad;
  if (decoded.eventType !== kind.eventType) {
    return { problem: `event ${eventId} is labelled ${kind.eventType} but carries ${decoded.eventType}` };
  }
  if (decoded.partnerId === "") return { problem: `event ${eventId} has no partner_id` };
  const orderKey = kind.orderKey(decoded);
  if (orderKey === "") return { problem: `event ${eventId} has no ${kind.orderKeyField}` };
  const event: IntakeEvent = {
    eventId,
    eventType: kind.eventType,
    partnerId: decoded.partnerId,
    orderKey,
    sequence: 1n,
    occurredAt: decoded.occurredAt,
    ...(kind.tally ? { tally: kind.tally(decoded) } : {}),
  };
  try {
    return { event, body: kind.buildBody({ ...decoded, eventId }) };
  } catch (error) {
    return { problem: `event ${eventId} cannot be notified: ${(error as Error).message}` };
  }
}

function decodeTransactionEvent(message: EventMessage): Decoded {
  let decoded: ReturnType<typeof fromBinary<typeof TransactionEventSchema>>;
  try {
    decoded = fromBinary(TransactionEventSchema, message.value);
  } catch (error) {
    return { problem: `not a TransactionEvent (${(error as Error).message})` };
  }
  if (decoded.eventId === "") decoded.eventId = message.headers["event-id"] ?? "";
  const bad = badEventId(decoded.eventId);
  if (bad) return bad;
  const event: IntakeEvent = {
    eventId: decoded.eventId,
    eventType: decoded.eventType,
    partnerId: decoded.partnerId,
    orderKey: decoded.txId,
    sequence: decoded.sequence,
    occurredAt: decoded.occurredAt,
    ...(decoded.batchId === ""
      ? {}
      : {
          batchId: decoded.batchId,
          ...(isFinalItemEvent(decoded.eventType)
            ? { tally: { batchId: decoded.batchId, itemsFinal: 1 } }
            : {}),
        }),
  };
  // A TransactionEvent labelled with another notified type (statement.closed) is not one to notify.
  if (!isTransactionEventType(event.eventType)) return { event, body: undefined };
  if (event.partnerId === "") return { problem: `event ${event.eventId} has no partner_id` };
  try {
    const amountDp = minorUnits(decoded.currency);
    const body = buildNotificationBody(
      decoded,
      amountDp === undefined ? { dp: FEE_DP } : { dp: FEE_DP, amountDp },
    );
    return { event, body };
  } catch (error) {
    return { problem: `event ${event.eventId} cannot be notified: ${(error as Error).message}` };
  }
}

/** The event that makes a batch item final: each paid item's transaction has exactly one. */
function isFinalItemEvent(eventType: string): boolean {
  return eventType === "transaction.success" || eventType === "transaction.failed";
}

/** Sums the tallies of the events, per batch. */
function batchTallies(
  events: readonly Notifiable[],
): Map<string, { itemsFinal: number; itemsExpected?: number }> {
  const tallies = new Map<string, { itemsFinal: number; itemsExpected?: number }>();
  for (const { event } of events) {
    if (event.tally === undefined) continue;
    const { batchId, itemsFinal, itemsExpected } = event.tally;
    const sum = tallies.get(batchId) ?? { itemsFinal: 0 };
    sum.itemsFinal += itemsFinal;
    if (itemsExpected !== undefined) sum.itemsExpected = itemsExpected;
    tallies.set(batchId, sum);
  }
  return tallies;
}

/**
 * One intake batch stores its deliveries with one creation time: their ids keep the batch's order (a
 * transaction's success before its refund), so listings newest-first by id show the refund first.
 */
const nextDeliveryId = monotonicIds("whd");

/** Answers how many deliveries were stored pending. */
async function storeDeliveries(events: readonly Notifiable[], options: EventIntakeOptions): Promise<number> {
  const now = options.now();
  // Reserved right before the insert (a run retried by the transaction gives its reservation back first).
  let preclaim: Preclaim | undefined;
  const reserve = (wanted: number) => {
    preclaim?.cancel();
    preclaim = options.preclaim?.(wanted);
    return preclaim;
  };
  let stored: { count: number; claimed: ClaimedDelivery[] };
  try {
    stored = await storeInTransaction(events, now, reserve, options);
  } catch (error) {
    preclaim?.cancel();
    throw error;
  }
  preclaim?.adopt(stored.claimed);
  return stored.count - stored.claimed.length;
}

/**
 * Idempotent: run again after it committed, it finds the events processed and stores nothing, so a
 * connection lost while COMMIT's answer was awaited is retried at once rather than by the bus. (Rows it had
 * stored claimed are then sent by nobody here; they go back to pending when their lease runs out.)
 */
function storeInTransaction(
  events: readonly Notifiable[],
  now: Date,
  reserve: (wanted: number) => PreclaimOptions | undefined,
  options: EventIntakeOptions,
): Promise<{ count: number; claimed: ClaimedDelivery[] }> {
  return options.db.transaction(
    async (tx) => {
      const fresh = await markEventsProcessed(
        tx,
        events.map(({ event }) => ({
          eventId: event.eventId,
          eventType: event.eventType,
          txId: event.orderKey,
        })),
        now,
      );
      if (fresh.size === 0) return { count: 0, claimed: [] };
      const newEvents = events.filter(({ event }) => fresh.has(event.eventId));
      await addToBatchTallies(tx, batchTallies(newEvents), now);
      const configs = await activeConfigsOfPartners(tx, [
        ...new Set(newEvents.map(({ event }) => event.partnerId)),
      ]);
      const deliveries: NewDelivery[] = newEvents.flatMap(({ event, body, traceparent }) => {
        const nextAttemptAt = new Date(
          now.getTime() + withJitter(options.retryScheduleMs[0] ?? 0, options.random()),
        );
        const occurredAt = event.occurredAt ? timestampDate(event.occurredAt) : undefined;
        return configs
          .filter((c) => c.partner_id === event.partnerId && matchesFilter(c.events, event.eventType))
          .map((config) => ({
            deliveryId: nextDeliveryId(now.getTime()),
            eventId: event.eventId,
            configId: config.config_id,
            partnerId: event.partnerId,
            txId: event.orderKey,
            sequence: event.sequence,
            eventType: event.eventType,
            body,
            nextAttemptAt,
            traceparent,
            occurredAt,
            batchId: event.batchId,
          }));
      });
      const claimed = await insertDeliveries(tx, deliveries, now, reserve(deliveries.length));
      return { count: deliveries.length, claimed };
    },
    { idempotent: true },
  );
}
