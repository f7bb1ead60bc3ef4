import { Kafka, logLevel } from "kafkajs";

/**
 * Points a (stopped) consumer group at the end of `topic`, creating the topic if needed, so a
 * dispatcher joining with that group starts with no backlog from earlier runs on a shared broker.
 */
export async function moveGroupToEnd(
  brokers: readonly string[],
  topic: string,
  groupId: string,
): Promise<void> {
  const kafka = new Kafka({ clientId: "payouts-bench", brokers: [...brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 3 }] });
    await admin.resetOffsets({ groupId, topic, earliest: false });
  } finally {
    await admin.disconnect();
  }
}
