/**
 * The body of `TestConfig`: a synthetic `transaction.success` notification, marked `"test": true`, built
 * and signed like a real one so a receiver can check its path, authentication and signature end to end.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { buildNotificationBody } from "./payload.js";

export const TEST_EVENT_TYPE = "transaction.success";

export function buildTestNotificationBody(eventId: string, at: Date): Buffer {
  const event = create(TransactionEventSchema, {
    eventId,
    eventType: TEST_EVENT_TYPE,
    occurredAt: timestampFromDate(at),
    txId: "tx_test",
    status: "SUCCESS",
    amount: "100",
    currency: "USD",
    fee: "1.8",
    percentageFee: "1.5",
    fixedFee: "0.3",
    sender: { name_first: "Test", name_last: "Sender", country: "US" },
    recipient: { name_first: "Test", name_last: "Recipient", country: "BR" },
  });
  return buildNotificationBody(event, { dp: 2, amountDp: 2, test: true });
}
