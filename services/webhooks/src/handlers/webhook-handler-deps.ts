import type { Database } from "@payouts/platform/database/database";
import type { NotificationSender } from "../delivery/notification-sender.js";
import type { SecretBox } from "../secrets/secret-box.js";

export interface WebhookHandlerDeps {
  readonly db: Database;
  readonly secretBox: () => Promise<SecretBox>;
  readonly send: NotificationSender;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and internal receivers accepted. */
  readonly allowPrivateUrls: boolean;
  readonly now: () => Date;
  readonly newConfigId: () => string;
  /** Wakes this process's delivery workers (a redelivery is due now). */
  readonly wakeWorkers: () => void;
}
