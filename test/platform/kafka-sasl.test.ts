/**
 * The event bus against a broker that requires SASL/SCRAM: with the credentials KAFKA_SASL_* give it, it
 * publishes and consumes; without them, or with a wrong password, the broker refuses it.
 */

import type { EventBus, EventMessage } from "@payouts/platform/events/event-bus";
import { loadKafkaSecurity } from "@payouts/platform/events/kafka-client-config";
import { createKafkaEventBus } from "@payouts/platform/events/kafka-event-bus";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SaslKafka, startSaslKafka } from "../support/own-sasl-kafka.js";

let kafka: SaslKafka;
const buses: EventBus[] = [];

beforeAll(async () => {
  kafka = await startSaslKafka({ ledger: "ledger-scram-password" });
}, 180_000);

afterAll(async () => {
  for (const bus of buses) await bus.close().catch(() => {});
  await kafka?.destroy();
}, 60_000);

function bus(env: Record<string, string>): EventBus {
  const created = createKafkaEventBus({
    brokers: [kafka.brokers],
    clientId: "sasl-test",
    security: loadKafkaSecurity(env),
  });
  buses.push(created);
  return created;
}

const message = (key: string): EventMessage => ({
  topic: "sasl-test-events",
  key,
  value: new Uint8Array([1, 2, 3]),
  headers: { "event-id": key },
});

const scram = (password: string) => ({
  KAFKA_SASL_MECHANISM: "scram-sha-256",
  KAFKA_SASL_USERNAME: "ledger",
  KAFKA_SASL_PASSWORD: password,
});

describe("Kafka with SASL/SCRAM", () => {
  it("publishes and consumes with the process's credentials", async () => {
    const authenticated = bus(scram("ledger-scram-password"));
    const received: string[] = [];
    await authenticated.subscribe({
      topic: "sasl-test-events",
      groupId: "sasl-test-group",
      handler: async (m) => {
        received.push(m.key);
      },
    });
    await authenticated.publish([message("evt-1")]);
    await expect.poll(() => received, { timeout: 30_000 }).toEqual(["evt-1"]);
  });

  it("is refused without credentials and with a wrong password", async () => {
    await expect(bus({}).publish([message("evt-anonymous")])).rejects.toThrow();
    await expect(bus(scram("not-the-password")).publish([message("evt-wrong")])).rejects.toThrow();
  });
});
