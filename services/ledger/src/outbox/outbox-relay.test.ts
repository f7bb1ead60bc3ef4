import { describe, expect, it } from "vitest";
import type { OutboxRow } from "../store/outbox-store.js";
import { inTransactionOrder } from "./outbox-relay.js";

const row = (id: string, txId: string, sequence: number): OutboxRow => ({
  id,
  eventId: `evt_${id}`,
  txId,
  sequence,
  eventType: "transaction.success",
  payload: new Uint8Array(),
  headers: {},
});

describe("inTransactionOrder", () => {
  it("keeps the batch order when it already respects each transaction's sequence", () => {
    const rows = [row("1", "a", 1), row("2", "b", 1), row("3", "a", 2)];
    expect(inTransactionOrder(rows).map((r) => r.id)).toEqual(["1", "2", "3"]);
  });

  it("puts one transaction's events back in sequence order in the same slots", () => {
    const rows = [row("1", "a", 3), row("2", "b", 1), row("3", "a", 2), row("4", "a", 1)];
    const ordered = inTransactionOrder(rows);
    expect(ordered.map((r) => `${r.txId}${r.sequence}`)).toEqual(["a1", "b1", "a2", "a3"]);
    expect(ordered).toHaveLength(rows.length);
  });

  it("orders an event keyed by its own event_key (a statement) apart from transactions", () => {
    const statement = (id: string, key: string, sequence: number): OutboxRow => ({
      ...row(id, "", sequence),
      eventKey: key,
      eventType: "statement.closed",
    });
    const rows = [
      statement("1", "stmt_b", 2),
      row("2", "a", 1),
      statement("3", "stmt_a", 1),
      statement("4", "stmt_b", 1),
    ];
    expect(inTransactionOrder(rows).map((r) => `${r.eventKey ?? r.txId}${r.sequence}`)).toEqual([
      "stmt_b1",
      "a1",
      "stmt_a1",
      "stmt_b2",
    ]);
  });
});
