/** An event of a transaction as published: the receiver must get a transaction's events by `sequence`. */
export interface SequencedEvent {
  readonly eventId: string;
  readonly txId: string;
  readonly sequence: number;
}

export interface OrderAudit {
  /** Transactions with more than one event. */
  readonly transactions: number;
  /** Of those, the ones whose events arrived out of sequence, or a later event without an earlier one. */
  readonly outOfOrder: number;
}

/**
 * Checks, for one receiver, that the events of every transaction with several events arrived in the
 * order of their sequence numbers. `arrivalIndexOf` gives the position of an event's first arrival at the
 * receiver, undefined when it never arrived. A transaction whose later event arrived while an earlier one
 * did not is out of order (the dispatcher must hold a later event until the earlier one is settled); one
 * where only earlier events arrived is not (the rest may still be on their way).
 */
export function auditTransactionOrder(
  events: readonly SequencedEvent[],
  arrivalIndexOf: (eventId: string) => number | undefined,
): OrderAudit {
  const byTx = new Map<string, SequencedEvent[]>();
  for (const e of events) {
    const list = byTx.get(e.txId);
    if (list) list.push(e);
    else byTx.set(e.txId, [e]);
  }
  let transactions = 0;
  let outOfOrder = 0;
  for (const list of byTx.values()) {
    if (list.length < 2) continue;
    transactions++;
    const sorted = [...list].sort((a, b) => a.sequence - b.sequence);
    let previous = Number.NEGATIVE_INFINITY;
    let missingEarlier = false;
    for (const e of sorted) {
      const index = arrivalIndexOf(e.eventId);
      if (index === undefined) {
        missingEarlier = true;
        continue;
      }
      if (missingEarlier || index < previous) {
        outOfOrder++;
        break;
      }
      previous = index;
    }
  }
  return { transactions, outOfOrder };
}
