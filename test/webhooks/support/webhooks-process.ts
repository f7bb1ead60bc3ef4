/**
 * A webhook dispatcher in a process of its own, on the database in DATABASE_URL, with the settings of the
 * environment: for tests that kill it with SIGKILL. Prints "ready <worker count>" once it runs.
 */
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { createLogger } from "@payouts/platform/logging/logger";
import { createWebhooksService } from "@payouts/webhooks/webhooks-service";

const db = createPgDatabase({
  connectionString: process.env.DATABASE_URL ?? "",
  applicationName: "webhook-child-dispatcher",
});
const dispatcher = createWebhooksService({
  db,
  bus: createInProcessEventBus(),
  logger: createLogger({ service: "webhook-child", level: process.env.TEST_LOG_LEVEL ?? "silent" }),
  transports: {},
  env: process.env,
  mode: "distributed",
});
await dispatcher.start();
process.stdout.write("ready\n");
