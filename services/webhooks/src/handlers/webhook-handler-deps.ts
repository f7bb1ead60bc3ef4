import type { Database } from "@payouts/platform/database/database";
import type { NotificationSender } from "../delivery/notification-sender.js";
import type { SecretBox } from "../secrets/secret-box.js";

export interface WebhookHandlerDeps {
  readonly db: Database;
  readonly secretBox: () => Promise<SecretBox>;
  readonly send: NotificationSender;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and internal receivers accepted. */
  readonly allowPrivateUrls: boolean;
  /** WEBHOOK_ALLOWED_PORTS: the ports receiver URLs may use; undefined = any. */
  readonly allowedPorts?: readonly number[] | undefined;
  readonly now: () => Date;
  readonly newConfigId: () => string;
  /** Wakes this process's delivery workers (a redelivery is due now). */
  readonly wakeWorkers: () => void;
}
