/**
 * Stores finished attempts in batches: group commit. While one statement is being written, attempts that
 * finish queue up; the next statement takes all of them (up to `maxBatch`). An attempt that finishes when
 * nothing is being written goes out at the end of that event-loop turn, so batching adds no wait: under
 * load a hundred answers cost one statement and one commit instead of a hundred four-statement
 * transactions.
 *
 * A batch the database refuses is tried again one attempt at a time, so one bad row (e.g. a delivery
 * deleted with its configuration in between) fails only its own attempt.
 */
import type { Database } from "@payouts/platform/database/database";
import type { CircuitSettings } from "../domain/circuit-breaker.js";
import { type CircuitChange, type RecordedAttempt, recordAttempts } from "../store/delivery-queue-store.js";

export interface AttemptRecorder {
  /** Resolves once stored: true when the delivery's guard matched (the claim was still this attempt's). */
  record(attempt: RecordedAttempt): Promise<boolean>;
}

export interface AttemptRecorderOptions {
  readonly db: Database;
  /** Most attempts per statement. */
  readonly maxBatch: number;
  /** How recorded attempts move their receivers' circuits. */
  readonly circuit: CircuitSettings;
  /** Called with the circuits a stored batch opened or closed. */
  readonly onCircuitChanges?: (changes: readonly CircuitChange[]) => void;
}

interface Queued {
  readonly attempt: RecordedAttempt;
  readonly resolve: (applied: boolean) => void;
  readonly reject: (error: unknown) => void;
}

export function createAttemptRecorder(options: AttemptRecorderOptions): AttemptRecorder {
  const queue: Queued[] = [];
  let writing = false;
  let scheduled = false;

  const write = async (batch: readonly Queued[]) => {
    try {
      const stored = await recordAttempts(
        options.db,
        batch.map((q) => q.attempt),
        options.circuit,
      );
      if (stored.circuitChanges.length > 0) options.onCircuitChanges?.(stored.circuitChanges);
      for (const q of batch) q.resolve(stored.applied.has(q.attempt.record.deliveryId));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const q of batch) await write([q]);
    }
  };

  const flush = async () => {
    scheduled = false;
    if (writing) return;
    writing = true;
    try {
      while (queue.length > 0) await write(queue.splice(0, options.maxBatch));
    } finally {
      writing = false;
    }
  };

  return {
    record(attempt) {
      return new Promise<boolean>((resolve, reject) => {
        queue.push({ attempt, resolve, reject });
        // After this turn of the event loop: the answers that arrived in it share the statement.
        if (!writing && !scheduled) {
          scheduled = true;
          setImmediate(() => void flush());
        }
      });
    },
  };
}
