/**
 * Publishes outbox rows to the event bus, in order, at least once. One relay is active across all ledger
 * replicas: the holder of the `outbox` lease row (renewed while it works, taken over when it expires),
 * which works on PostgreSQL and on PGlite alike. Rows are selected as "not yet published" in
 * (created_at, id) order, so a row committed late is still picked up; the events of one transaction are
 * published in their sequence order with key = tx_id, which keeps them in order on their partition. An event
 * that is not a transaction's (statement.closed) is keyed by its own event_key (busKey) the same way.
 * Each message is signed as it is published (event-signature.ts), so the dispatcher can refuse anything
 * on the topic that the ledger did not publish.
 */
import { randomBytes } from "node:crypto";
import { createPeriodicTask, type PeriodicTask } from "@payouts/platform/background/periodic-task";
import type { Database } from "@payouts/platform/database/database";
import {
  type EventBus,
  type EventMessage,
  TRANSACTION_EVENTS_TOPIC,
} from "@payouts/platform/events/event-bus";
import type { EventSigner } from "@payouts/platform/events/event-signature";
import type { Logger } from "@payouts/platform/logging/logger";
import {
  acquireLease,
  busKey,
  markPublished,
  type OutboxRow,
  releaseLease,
  unpublishedEvents,
} from "../store/outbox-store.js";

const LEASE_NAME = "outbox";
/**
 * Longest pause after failed passes. Short: a pass during a broker outage already spends the bus's own
 * retries, and the relay must try again soon after the broker is back.
 */
const MAX_FAILURE_DELAY_MS = 1_000;

export interface OutboxRelayOptions {
  readonly db: Database;
  readonly bus: EventBus;
  readonly logger: Logger;
  readonly pollMs: number;
  readonly batchSize: number;
  readonly leaseMs: number;
  /** Signs every published message; undefined publishes them unsigned (which a dispatcher refuses). */
  readonly signer: EventSigner | undefined;
}

export interface OutboxRelay extends PeriodicTask {
  /** One pass: publishes everything unpublished while holding the lease; returns how many rows. */
  drain(): Promise<number>;
}

export function createOutboxRelay(options: OutboxRelayOptions): OutboxRelay {
  const holder = `relay-${randomBytes(8).toString("hex")}`;
  const signer = options.signer;
  // The lease is renewed once half of it has run out, not on every poll.
  let renewAt = 0;
  let holding = false;

  const holdLease = async (): Promise<boolean> => {
    if (holding && performance.now() < renewAt) return true;
    holding = await acquireLease(options.db, LEASE_NAME, holder, options.leaseMs);
    renewAt = performance.now() + options.leaseMs / 2;
    return holding;
  };

  const drain = async (): Promise<number> => {
    let published = 0;
    while (await holdLease()) {
      const rows = await unpublishedEvents(options.db, options.batchSize);
      if (rows.length === 0) break;
      const messages = inTransactionOrder(rows).map(toMessage);
      await options.bus.publish(signer ? messages.map((m) => signer.sign(m)) : messages);
      await markPublished(
        options.db,
        rows.map((r) => r.id),
      );
      published += rows.length;
      if (rows.length < options.batchSize) break;
    }
    return published;
  };

  const task = createPeriodicTask({
    name: "outbox-relay",
    intervalMs: options.pollMs,
    logger: options.logger,
    run: async () => {
      await drain();
    },
    failureDelayMs: (failures) => Math.min(options.pollMs * 2 ** failures, MAX_FAILURE_DELAY_MS),
  });

  return {
    ...task,
    drain,
    async stop() {
      await task.stop();
      if (holding) await releaseLease(options.db, LEASE_NAME, holder).catch(() => {});
      holding = false;
    },
  };
}

/**
 * The batch in (created_at, id) order, except that the events of one transaction keep their sequence
 * order even if clocks disagreed about created_at.
 */
export function inTransactionOrder(rows: readonly OutboxRow[]): OutboxRow[] {
  const byKey = new Map<string, OutboxRow[]>();
  for (const row of rows) byKey.set(busKey(row), [...(byKey.get(busKey(row)) ?? []), row]);
  for (const list of byKey.values()) list.sort((a, b) => a.sequence - b.sequence);
  const next = new Map<string, number>();
  return rows.map((row) => {
    const index = next.get(busKey(row)) ?? 0;
    next.set(busKey(row), index + 1);
    return byKey.get(busKey(row))![index]!;
  });
}

function toMessage(row: OutboxRow): EventMessage {
  return { topic: TRANSACTION_EVENTS_TOPIC, key: busKey(row), value: row.payload, headers: row.headers };
}
