/**
 * A member of a Kafka consumer group in a process of its own, for tests that kill it with SIGKILL and
 * leave the broker to drop it once its session times out. Arguments: brokers, topic, group id, session
 * timeout in ms. Takes no message off its partitions; prints "joined" once it is in the group.
 */
import { Kafka, logLevel } from "kafkajs";

const [brokers = "", topic = "", groupId = "", sessionTimeout = "10000"] = process.argv.slice(2);
const kafka = new Kafka({
  clientId: "group-member",
  brokers: brokers.split(","),
  logLevel: logLevel.NOTHING,
});
const consumer = kafka.consumer({
  groupId,
  sessionTimeout: Number(sessionTimeout),
  heartbeatInterval: 1_000,
});
consumer.on(consumer.events.GROUP_JOIN, () => process.stdout.write("joined\n"));
await consumer.connect();
await consumer.subscribe({ topic, fromBeginning: true });
await consumer.run({ eachMessage: () => new Promise<void>(() => {}) });
