import type { BasicAuth } from "../domain/config-rules.js";
import { deliveryUrl, type NotifiedEventType } from "../domain/event-kinds.js";
import type { SecretBox } from "../secrets/secret-box.js";
import { buildDeliveryHeaders } from "../signing/signature.js";
import type { ReceiverAnswer, ReceiverClient } from "./receiver-client.js";

/** Where a notification goes, as stored on the configuration (secrets still sealed). */
export interface ReceiverTarget {
  readonly config_id: string;
  readonly url: string;
  readonly secret_sealed: string | null;
  /** The secret a rotation replaced, signing beside the current one until it expires. */
  readonly previous_secret_sealed: string | null;
  readonly previous_secret_expires_at: Date | null;
  readonly basic_auth_username: string | null;
  readonly basic_auth_sealed: string | null;
}

export interface Notification {
  readonly eventId: string;
  readonly eventType: NotifiedEventType;
  /** The exact stored bytes; sent and signed as they are. */
  readonly body: Uint8Array;
  readonly attempt: number;
}

export interface NotificationSenderDeps {
  readonly brand: string;
  readonly appVersion: string;
  readonly client: ReceiverClient;
  readonly secretBox: () => Promise<SecretBox>;
  readonly now: () => Date;
}

/** `signal` stops the attempt (the claim's lease or the worker's liveness is running out). */
export type NotificationSender = (
  target: ReceiverTarget,
  notification: Notification,
  signal?: AbortSignal,
) => Promise<ReceiverAnswer>;

/**
 * Sends one notification: unseals the configuration's credentials, signs for this attempt (the Standard
 * Webhooks timestamp is per attempt) and posts. A failure to prepare the request is reported like a
 * transport failure, so it is retried and visible in the attempt log rather than crashing a worker; it is
 * marked local, so it does not count against the receiver's circuit.
 */
export function createNotificationSender(deps: NotificationSenderDeps): NotificationSender {
  return async (target, notification, signal) => {
    let headers: Record<string, string>;
    try {
      const credentials = await unseal(target, await deps.secretBox(), deps.now());
      headers = buildDeliveryHeaders({
        brand: deps.brand,
        appVersion: deps.appVersion,
        secret: credentials.secret,
        previousSecrets: credentials.previousSecrets,
        basicAuth: credentials.basicAuth,
        eventId: notification.eventId,
        eventType: notification.eventType,
        attempt: notification.attempt,
        nowSeconds: Math.floor(deps.now().getTime() / 1000),
        body: notification.body,
      });
    } catch (error) {
      return { error: `request not sent: ${(error as Error).message}`, latencyMs: 0, local: true };
    }
    const url = deliveryUrl(target.url, notification.eventType);
    return deps.client({ url, headers, body: notification.body, ...(signal ? { signal } : {}) });
  };
}

/** Associated data binding a sealed value to its configuration and column. */
export function sealContext(configId: string, column: "secret" | "previous_secret" | "basic_auth"): string {
  return `webhooks.configs/${configId}/${column}`;
}

async function unseal(
  target: ReceiverTarget,
  box: SecretBox,
  now: Date,
): Promise<{ secret: string | undefined; previousSecrets: string[]; basicAuth: BasicAuth | undefined }> {
  const secret =
    target.secret_sealed === null
      ? undefined
      : box.open(target.secret_sealed, sealContext(target.config_id, "secret"));
  // Past its grace period a previous secret no longer signs, even before the periodic clean-up drops it.
  const previousSecrets =
    secret === undefined ||
    target.previous_secret_sealed === null ||
    target.previous_secret_expires_at === null ||
    target.previous_secret_expires_at <= now
      ? []
      : [box.open(target.previous_secret_sealed, sealContext(target.config_id, "previous_secret"))];
  const basicAuth =
    target.basic_auth_username === null || target.basic_auth_sealed === null
      ? undefined
      : {
          username: target.basic_auth_username,
          password: box.open(target.basic_auth_sealed, sealContext(target.config_id, "basic_auth")),
        };
  return { secret, previousSecrets, basicAuth };
}
