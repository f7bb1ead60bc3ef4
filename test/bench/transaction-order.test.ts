import { describe, expect, it } from "vitest";
import { auditTransactionOrder } from "./transaction-order.js";

const events = [
  { eventId: "a1", txId: "a", sequence: 3 },
  { eventId: "a2", txId: "a", sequence: 4 },
  { eventId: "b1", txId: "b", sequence: 3 },
  { eventId: "c2", txId: "c", sequence: 4 },
  { eventId: "c1", txId: "c", sequence: 3 },
];

describe("auditTransactionOrder", () => {
  it("passes transactions whose events arrived by sequence, whatever the publish list's order", () => {
    const arrival = new Map([
      ["c1", 0],
      ["a1", 1],
      ["b1", 2],
      ["c2", 3],
      ["a2", 4],
    ]);
    expect(auditTransactionOrder(events, (id) => arrival.get(id))).toEqual({
      transactions: 2,
      outOfOrder: 0,
    });
  });

  it("flags a later event that arrived before the earlier one", () => {
    const arrival = new Map([
      ["a2", 0],
      ["a1", 1],
      ["c1", 2],
      ["c2", 3],
    ]);
    expect(auditTransactionOrder(events, (id) => arrival.get(id))).toEqual({
      transactions: 2,
      outOfOrder: 1,
    });
  });

  it("flags a later event that arrived without the earlier one, not an earlier one still alone", () => {
    const arrival = new Map([
      ["a2", 0],
      ["c1", 1],
    ]);
    expect(auditTransactionOrder(events, (id) => arrival.get(id))).toEqual({
      transactions: 2,
      outOfOrder: 1,
    });
  });
});
