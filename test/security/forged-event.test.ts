/**
 * Attack: a foothold that can produce to Kafka (the broker lets any client write the events topic) puts a
 * `transaction.success` on the topic for a transaction that does not exist, 500,000 BRL, for a real
 * partner: the dispatcher must not turn it into a webhook the partner's signature check accepts. Three
 * forgeries, on real Kafka with a raw kafkajs producer: unsigned; signed with a key of the attacker's
 * (under its own key id, and under the ledger's); and a genuine signature copied onto an altered body.
 * A real receiver on 127.0.0.1 must get the genuine events of a real payout, and nothing else.
 */
import { randomBytes, sign } from "node:crypto";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { TRANSACTION_EVENTS_TOPIC } from "@payouts/platform/events/event-bus";
import {
  createEventSigner,
  EVENT_SIGNATURE_HEADER,
  EVENT_SIGNATURE_KEY_HEADER,
  generateEventSigningKeys,
  parseSigningKey,
} from "@payouts/platform/events/event-signature";
import { TransactionEventSchema } from "@payouts/proto/payouts/events/v1/events_pb";
import { Kafka, logLevel, type Producer } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  executePayout,
  fundedPartner,
  type Partner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "../ledger/support/payout-fixtures.js";
import { readTopic } from "../ledger/support/topic-reader.js";
import { kafkaBrokers } from "../support/infra.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { jsonOf, startTestReceiver, type TestReceiver } from "../webhooks/support/test-receiver.js";

/** How long the dispatcher gets, after a later genuine event arrived, to deliver anything before it. */
const SETTLE_MS = 1_500;

let platform: TestPlatform;
let receiver: TestReceiver;
let partner: Partner;
let producer: Producer;

beforeAll(async () => {
  platform = await startTestPlatform({
    kafka: true,
    env: {
      // Other test platforms share the topic: a group of our own sees every event.
      WEBHOOK_CONSUMER_GROUP: `forged-event-${randomBytes(4).toString("hex")}`,
      WEBHOOK_RETRY_SCHEDULE_MS: "0,200,200",
      QUOTE_TTL_MS: "600000",
    },
  });
  await setUpCorridor(platform);
  receiver = await startTestReceiver();
  partner = await fundedPartner(platform, "100");
  const config = await platform.partner(partner, "POST", "/webhookConfigs", {
    url: `${receiver.url}/partner`,
    secret: "forged-event-secret-0123456789",
    events: ["transaction.success", "transaction.refunded"],
  });
  expect(config.status, config.text).toBe(201);
  producer = new Kafka({
    clientId: "forged-event-attacker",
    brokers: kafkaBrokers(),
    logLevel: logLevel.NOTHING,
  }).producer();
  await producer.connect();
});

afterAll(async () => {
  await producer?.disconnect();
  await platform?.close();
  await receiver?.close();
});

/** A transaction.success for a transaction that does not exist: 500,000 BRL for the partner. */
function forgedEvent(label: string) {
  const eventId = `evt_forged_${label}_${randomBytes(6).toString("hex")}`;
  const event = create(TransactionEventSchema, {
    eventId,
    eventType: "transaction.success",
    occurredAt: timestampFromDate(new Date()),
    txId: `tx_forged_${label}`,
    partnerId: partner.partnerId,
    status: "SUCCESS",
    sequence: 3n,
    amount: "500000",
    currency: "BRL",
    amountUsd: "92592.59",
    fee: "0",
    percentageFee: "0",
    fixedFee: "0",
    recipient: { name_first: "Mallory", account_no: "52998224725" },
  });
  return { eventId, value: Buffer.from(toBinary(TransactionEventSchema, event)) };
}

/** Produces as the attacker: keyed like the genuine events of `key`, so they share its partition. */
async function produce(key: string, value: Buffer, headers: Record<string, string>): Promise<void> {
  await producer.send({
    topic: TRANSACTION_EVENTS_TOPIC,
    acks: -1,
    messages: [{ key, value, headers: { "event-type": "transaction.success", ...headers } }],
  });
}

const deliveredTxIds = () => receiver.requests.map((r) => (jsonOf(r) as { tx_id?: string }).tx_id);

describe("events on the topic that the ledger did not sign", () => {
  it("never become webhooks, while the ledger's own events still do", async () => {
    const txId = await pendingTransaction(platform, partner.partnerId);
    const attacker = parseSigningKey(generateEventSigningKeys().signingKey);

    // 1. Unsigned.
    const unsigned = forgedEvent("unsigned");
    await produce(txId, unsigned.value, { "event-id": unsigned.eventId });
    // 2. Signed with the attacker's key, under its own key id.
    const ownKey = forgedEvent("own-key");
    const ownSigned = createEventSigner(attacker).sign({
      topic: TRANSACTION_EVENTS_TOPIC,
      key: txId,
      value: ownKey.value,
      headers: { "event-id": ownKey.eventId },
    });
    await produce(txId, ownKey.value, ownSigned.headers);

    // A genuine payout of the same transaction: its success event comes after the forgeries in the
    // partition they share, so once it is delivered the dispatcher has taken them.
    const reader = await readTopic(kafkaBrokers().join(","), () => new Set([txId]));
    try {
      await quoted(platform, partner, txId);
      const executed = await executePayout(platform, partner, txId, `key-${txId}`);
      expect(executed.status, executed.text).toBe(200);
      const settled = await platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, {
        outcome: "SUCCESS",
      });
      expect(settled.status, settled.text).toBe(200);
      await receiver.waitFor(1, (r) => r.path.endsWith("/success"), 30_000);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
      expect(deliveredTxIds()).toEqual([txId]);

      const successOf = () => reader.events.find((e) => e.event.eventType === "transaction.success");
      await expect.poll(successOf, { timeout: 30_000 }).toBeDefined();
      const genuine = successOf()!;
      // 3. Signed with the attacker's key, under the ledger's key id (read off a genuine event).
      const ledgerKeyId = genuine.headers[EVENT_SIGNATURE_KEY_HEADER] ?? "";
      const claimed = forgedEvent("claimed-key");
      await produce(txId, claimed.value, {
        "event-id": claimed.eventId,
        [EVENT_SIGNATURE_KEY_HEADER]: ledgerKeyId,
        [EVENT_SIGNATURE_HEADER]: sign(null, claimed.value, attacker).toString("base64url"),
      });
      // 4. The genuine event's signature on an altered body (another event id, another amount).
      const altered = create(TransactionEventSchema, {
        ...genuine.event,
        eventId: `evt_forged_altered_${randomBytes(6).toString("hex")}`,
        amount: "500000",
        amountUsd: "92592.59",
      });
      await produce(txId, Buffer.from(toBinary(TransactionEventSchema, altered)), {
        ...genuine.headers,
        "event-id": altered.eventId,
      });

      // The refund's event follows these in the partition.
      const refund = await platform.admin("POST", `/admin/transactions/${txId}/refund`, {
        reason: "customer request",
      });
      expect(refund.status, refund.text).toBe(200);
      await receiver.waitFor(1, (r) => r.path.endsWith("/refunded"), 30_000);
      await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    } finally {
      await reader.stop();
    }
    expect(receiver.requests.map((r) => r.path)).toEqual([
      "/partner/webhooks/transactions/success",
      "/partner/webhooks/transactions/refunded",
    ]);
    expect(deliveredTxIds()).toEqual([txId, txId]);
    const eventIds = receiver.requests.map((r) => (jsonOf(r) as { event_id?: string }).event_id ?? "");
    expect(eventIds.some((id) => id.startsWith("evt_forged_"))).toBe(false);
  });
});
