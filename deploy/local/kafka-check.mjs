// Smoke test for a local broker (kafka-up.sh) with the project's client,
// kafkajs: create a topic, produce, consume in a consumer group, commit, and
// read the committed offset back; also check that auto-created topics get the
// broker's num.partitions (3). Usage: node deploy/local/kafka-check.mjs 127.0.0.1:19092
// Exits 0 on success, 1 on any failure or after CHECK_TIMEOUT_MS (60 s).
import { randomUUID } from "node:crypto";
import { Kafka, logLevel } from "kafkajs";

const CHECK_TIMEOUT_MS = 60_000;
const MESSAGE_COUNT = 5;
const AUTO_CREATED_PARTITIONS = 3;

const broker = process.argv[2];
if (!broker) {
  console.error("usage: node kafka-check.mjs HOST:PORT");
  process.exit(2);
}

const runId = randomUUID().slice(0, 8);
const topic = `local-check-${runId}`;
const groupId = `local-check-group-${runId}`;
// Retriable errors (coordinator still loading on a fresh broker) are logged by
// kafkajs at ERROR level; only the final outcome matters here.
const kafka = new Kafka({ clientId: "local-check", brokers: [broker], logLevel: logLevel.NOTHING });

async function createTopic(admin) {
  const created = await admin.createTopics({
    topics: [{ topic, numPartitions: 1, replicationFactor: 1 }],
    waitForLeaders: true,
  });
  if (!created) throw new Error(`topic ${topic} already existed`);
}

async function produce(target, count) {
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const messages = Array.from({ length: count }, (_, i) => ({ key: `k${i}`, value: `v${i}` }));
  await producer.send({ topic: target, acks: -1, messages });
  await producer.disconnect();
}

async function checkAutoCreate(admin) {
  const autoTopic = `${topic}-auto`;
  await produce(autoTopic, 1);
  const { topics } = await admin.fetchTopicMetadata({ topics: [autoTopic] });
  const partitions = topics[0]?.partitions.length;
  if (partitions !== AUTO_CREATED_PARTITIONS) {
    throw new Error(
      `auto-created ${autoTopic} has ${partitions} partitions, expected ${AUTO_CREATED_PARTITIONS}`,
    );
  }
  await admin.deleteTopics({ topics: [autoTopic] });
}

// Resolves with the values read once MESSAGE_COUNT arrived; offsets are
// committed explicitly so the check does not depend on auto-commit timing.
async function consume() {
  const consumer = kafka.consumer({ groupId });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const values = [];
  const done = new Promise((resolve, reject) => {
    consumer
      .run({
        autoCommit: false,
        eachMessage: async ({ partition, message }) => {
          values.push(message.value?.toString());
          const next = (BigInt(message.offset) + 1n).toString();
          await consumer.commitOffsets([{ topic, partition, offset: next }]);
          if (values.length === MESSAGE_COUNT) resolve();
        },
      })
      .catch(reject);
  });
  await done;
  await consumer.disconnect();
  return values;
}

async function committedOffset(admin) {
  const [entry] = await admin.fetchOffsets({ groupId, topics: [topic] });
  return entry?.partitions[0]?.offset;
}

async function check() {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { brokers } = await admin.describeCluster();
    await createTopic(admin);
    await produce(topic, MESSAGE_COUNT);
    const values = await consume();
    const expected = Array.from({ length: MESSAGE_COUNT }, (_, i) => `v${i}`);
    if (values.join(",") !== expected.join(",")) {
      throw new Error(`consumed ${JSON.stringify(values)}, expected ${JSON.stringify(expected)}`);
    }
    const offset = await committedOffset(admin);
    if (offset !== String(MESSAGE_COUNT)) {
      throw new Error(`committed offset ${offset}, expected ${MESSAGE_COUNT}`);
    }
    await admin.deleteTopics({ topics: [topic] });
    await checkAutoCreate(admin);
    console.log(
      `kafka-check ok: ${brokers.length} broker(s), topic ${topic}, ${values.length} messages, group ${groupId} committed ${offset}`,
    );
  } finally {
    await admin.disconnect();
  }
}

const timer = setTimeout(() => {
  console.error(`kafka-check: timed out after ${CHECK_TIMEOUT_MS} ms against ${broker}`);
  process.exit(1);
}, CHECK_TIMEOUT_MS);

try {
  await check();
  clearTimeout(timer);
} catch (error) {
  console.error(`kafka-check failed against ${broker}:`, error);
  process.exit(1);
}
