import { create } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { type TransactionEvent, TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { describe, expect, it } from "vitest";
import { buildNotificationBody, formatJsonDecimal } from "./payload.js";

const OCCURRED_AT = create(TimestampSchema, { seconds: 1_740_832_496n, nanos: 789_123_456 });

function event(overrides: Partial<TransactionEvent> = {}): TransactionEvent {
  const base = create(TransactionEventSchema, {
    eventId: "0b9a4c1e-7f7e-4d4b-9a43-6d1f1f7f2c11",
    eventType: "transaction.success",
    occurredAt: OCCURRED_AT,
    txId: "tx_01HQ",
    partnerId: "partner_1",
    status: "SUCCESS",
    sequence: 3n,
    amount: "1500.5",
    currency: "KES",
    amountUsd: "11.612345678901",
    fee: "0.5",
    percentageFee: "0.174185185183",
    fixedFee: "0.3",
  });
  return Object.assign(base, overrides);
}

const body = (e: TransactionEvent, dp = 2, amountDp?: number) =>
  buildNotificationBody(e, amountDp === undefined ? { dp } : { dp, amountDp }).toString("utf8");

describe("buildNotificationBody", () => {
  it("writes the success payload byte for byte", () => {
    const bytes = buildNotificationBody(
      event({ sender: { name_first: "Ana", country: "KE" }, recipient: { account_no: "123" } }),
      { dp: 2, amountDp: 2 },
    );
    expect(Buffer.isBuffer(bytes)).toBe(true);
    expect(bytes.toString("utf8")).toBe(
      '{"tx_id":"tx_01HQ","status":"SUCCESS","amount":1500.50,"fee":0.50,"percentage_fee":0.17,' +
        '"fixed_fee":0.30,"sender":{"name_first":"Ana","country":"KE"},"recipient":{"account_no":"123"},' +
        '"event_id":"0b9a4c1e-7f7e-4d4b-9a43-6d1f1f7f2c11","event_type":"transaction.success",' +
        '"occurred_at":"2025-03-01T12:34:56.789Z"}',
    );
  });

  it("produces valid JSON whose numbers keep their values", () => {
    const parsed = JSON.parse(body(event()));
    expect(parsed).toMatchObject({ tx_id: "tx_01HQ", status: "SUCCESS", fee: 0.5, fixed_fee: 0.3 });
  });

  it.each([
    ["transaction.success", "SUCCESS"],
    ["transaction.refunded", "REFUNDED"],
    ["transaction.failed", "FAILED"],
  ])("%s carries status %s, from the event type", (eventType, status) => {
    expect(JSON.parse(body(event({ eventType, status: "whatever" }))).status).toBe(status);
  });

  it("names the bulk payout and its item after tx_id, only when the payout was an item of one", () => {
    expect(body(event({ batchId: "bat_1", itemRef: "row-7" }))).toMatch(
      /^\{"tx_id":"tx_01HQ","batch_id":"bat_1","item_ref":"row-7","status":"SUCCESS",/,
    );
    expect(body(event({ batchId: "bat_1" }))).toMatch(/^\{"tx_id":"tx_01HQ","batch_id":"bat_1","status":/);
    const single = body(event());
    expect(single).not.toContain("batch_id");
    expect(single).not.toContain("item_ref");
  });

  it("includes refund_reason only on refunds that have one", () => {
    expect(
      JSON.parse(body(event({ eventType: "transaction.refunded", refundReason: "duplicate" }))),
    ).toMatchObject({ refund_reason: "duplicate" });
    expect(body(event({ eventType: "transaction.refunded" }))).not.toContain("refund_reason");
    expect(body(event({ refundReason: "duplicate" }))).not.toContain("refund_reason");
  });

  it("includes failure_reason only on failures that have one", () => {
    expect(
      JSON.parse(body(event({ eventType: "transaction.failed", failureReason: "account closed" }))),
    ).toMatchObject({ failure_reason: "account closed" });
    expect(body(event({ eventType: "transaction.failed" }))).not.toContain("failure_reason");
    expect(body(event({ eventType: "transaction.refunded", failureReason: "x" }))).not.toContain(
      "failure_reason",
    );
  });

  it("leaves out absent or empty sender and recipient", () => {
    const text = body(event({ sender: {} }));
    expect(text).not.toContain("sender");
    expect(text).not.toContain("recipient");
  });

  it("leaves out money fields the event does not carry", () => {
    const parsed = JSON.parse(body(event({ amount: "", fee: "", percentageFee: "", fixedFee: "" })));
    expect(Object.keys(parsed)).toEqual(["tx_id", "status", "event_id", "event_type", "occurred_at"]);
  });

  it("never includes internal fields", () => {
    const parsed = JSON.parse(body(event()));
    for (const field of ["partner_id", "sequence", "amount_usd", "currency"])
      expect(parsed).not.toHaveProperty(field);
  });

  it.each([
    [2, "1500.50"],
    [0, "1501"],
    [3, "1500.500"],
    [undefined, "1500.5"],
  ])("writes the amount with amountDp %s as %s", (amountDp, expected) => {
    expect(body(event(), 2, amountDp)).toContain(`"amount":${expected},`);
  });

  it("formats the fees with the requested dp", () => {
    expect(body(event(), 4)).toContain('"fee":0.5000,"percentage_fee":0.1742,"fixed_fee":0.3000');
    expect(body(event(), 0)).toContain('"fee":1,"percentage_fee":0,"fixed_fee":0');
  });

  it("marks a test notification as the last member, and only when asked", () => {
    expect(buildNotificationBody(event(), { dp: 2, test: true }).toString("utf8")).toMatch(
      /"occurred_at":"[^"]+","test":true\}$/,
    );
    expect(body(event())).not.toContain('"test"');
    expect(buildNotificationBody(event(), { dp: 2, test: false }).toString("utf8")).not.toContain('"test"');
  });

  it("encodes text as UTF-8 and escapes JSON", () => {
    const bytes = buildNotificationBody(event({ sender: { name_last: 'Peña "Q"' } }), { dp: 2 });
    expect(bytes.includes(Buffer.from("Peña", "utf8"))).toBe(true);
    expect(JSON.parse(bytes.toString("utf8")).sender.name_last).toBe('Peña "Q"');
  });

  it.each([
    [{ eventType: "transaction.processing" }, /does not produce a notification/],
    [{ occurredAt: undefined }, /no occurred_at/],
    [{ txId: "" }, /no tx_id/],
    [{ eventId: "" }, /no event_id/],
    [{ fee: "1e3" }, /not a plain decimal/],
    [{ amount: "NaN" }, /not a plain decimal/],
  ] as const)("refuses %j", (overrides, message) => {
    expect(() => buildNotificationBody(event(overrides as Partial<TransactionEvent>), { dp: 2 })).toThrow(
      message,
    );
  });

  it.each([-1, 11, 1.5])("refuses dp %s", (dp) => {
    expect(() => buildNotificationBody(event(), { dp })).toThrow(RangeError);
  });
});

describe("formatJsonDecimal", () => {
  it.each([
    ["0.5", 2, "0.50"],
    ["0", 2, "0.00"],
    ["0.005", 2, "0.01"],
    ["0.004999999", 2, "0.00"],
    ["2.675", 2, "2.68"], // a double would give 2.67
    ["1.005", 2, "1.01"], // a double would give 1.00
    ["-1.005", 2, "-1.01"],
    ["-0.001", 2, "0.00"],
    ["-0", 2, "0.00"],
    ["123456789012345678.995", 2, "123456789012345679.00"],
    ["0.1234567890123", 10, "0.1234567890"],
    ["7", 0, "7"],
    ["7.5", 0, "8"],
    ["007.10", undefined, "7.1"],
    ["-0.000", undefined, "0"],
  ] as const)("%s at dp %s → %s", (value, dp, expected) => {
    expect(formatJsonDecimal(value, dp)).toBe(expected);
  });

  it.each(["", " 1", "1.", ".5", "+1", "1,5", "Infinity", "0x10", "1e-2"])("refuses %j", (value) => {
    expect(() => formatJsonDecimal(value, 2)).toThrow(/not a plain decimal/);
  });
});
