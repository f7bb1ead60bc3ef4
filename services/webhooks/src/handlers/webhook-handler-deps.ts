import type { Database } from "@payouts/platform/database/database";
import type { SecretBox } from "../secrets/secret-box.js";
import type { ManualSendLimits } from "./manual-send-limits.js";

export interface WebhookHandlerDeps {
  readonly db: Database;
  readonly secretBox: () => Promise<SecretBox>;
  /** WEBHOOK_ALLOW_PRIVATE_URLS: http and internal receivers accepted. */
  readonly allowPrivateUrls: boolean;
  /** WEBHOOK_ALLOWED_PORTS: the ports receiver URLs may use; undefined = any. */
  readonly allowedPorts?: readonly number[] | undefined;
  readonly now: () => Date;
  /** Per-partner rate limits of test notifications and redeliveries. */
  readonly limits: ManualSendLimits;
  /**
   * A test notification waits at most `claimMs` for a worker to claim it (then it is withdrawn), and then
   * at most `answerMs` (the claim's lease) for the answer.
   */
  readonly testWait: { readonly claimMs: number; readonly answerMs: number };
  /** WEBHOOK_MAX_CONFIGS_PER_PARTNER. */
  readonly maxConfigsPerPartner: number;
  readonly newConfigId: () => string;
  /** Wakes this process's delivery workers (a redelivery is due now). */
  readonly wakeWorkers: () => void;
}
