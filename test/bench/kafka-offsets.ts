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
    // Explicit offsets: resetOffsets commits -1 ("latest"), which a consumer with fromBeginning reads as
    // "no offset" and starts from the beginning after all.
    const ends = await admin.fetchTopicOffsets(topic);
    await admin.setOffsets({
      groupId,
      topic,
      partitions: ends.map(({ partition, high }) => ({ partition, offset: high })),
    });
  } finally {
    await admin.disconnect();
  }
}
