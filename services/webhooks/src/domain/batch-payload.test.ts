import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { BatchEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { describe, expect, it } from "vitest";
import { buildBatchCompletedBody } from "./batch-payload.js";

const event = (overrides: Partial<Parameters<typeof create<typeof BatchEventSchema>>[1]> = {}) =>
  create(BatchEventSchema, {
    eventId: "evt_1",
    eventType: "batch.completed",
    occurredAt: timestampFromDate(new Date("2026-07-02T01:00:00Z")),
    batchId: "bat_1",
    partnerId: "ptr_1",
    status: "COMPLETED",
    parentBatchId: "",
    total: 5,
    succeeded: 3,
    failed: 1,
    invalid: 1,
    excluded: 0,
    paidUsd: "31.35",
    releasedUsd: "10.45",
    executedItems: 4,
    ...overrides,
  });

describe("buildBatchCompletedBody", () => {
  it("writes the batch's outcome in snake_case, the amounts as the ledger wrote them", () => {
    const body = buildBatchCompletedBody(event());
    expect(JSON.parse(body.toString())).toEqual({
      batch_id: "bat_1",
      partner_id: "ptr_1",
      status: "COMPLETED",
      parent_batch_id: null,
      counts: { total: 5, succeeded: 3, failed: 1, invalid: 1, excluded: 0 },
      paid_usd: "31.35",
      released_usd: "10.45",
      event_id: "evt_1",
      event_type: "batch.completed",
      occurred_at: "2026-07-02T01:00:00.000Z",
    });
    // The members in this order: the bytes signed are the bytes a receiver reads.
    expect(body.toString().startsWith('{"batch_id":"bat_1","partner_id":"ptr_1","status":"COMPLETED"')).toBe(
      true,
    );
  });

  it("names the batch a retry was made from", () => {
    const body = JSON.parse(buildBatchCompletedBody(event({ parentBatchId: "bat_0" })).toString());
    expect(body.parent_batch_id).toBe("bat_0");
  });

  it.each([
    [{ eventType: "statement.closed" }, /is not batch.completed/],
    [{ batchId: "" }, /batch_id is missing/],
    [{ partnerId: "" }, /partner_id is missing/],
    [{ status: "" }, /status is missing/],
    [{ paidUsd: "1e3" }, /paid_usd "1e3" is not valid/],
    [{ releasedUsd: "" }, /released_usd "" is not valid/],
    [{ failed: -1 }, /failed -1 is not a count/],
    [{ occurredAt: undefined }, /occurred_at is missing/],
  ])("refuses %j", (overrides, message) => {
    expect(() => buildBatchCompletedBody(event(overrides))).toThrow(message);
  });
});
