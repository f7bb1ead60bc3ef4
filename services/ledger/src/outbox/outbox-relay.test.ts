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
});
