import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type Delivery,
  DeliveryAttemptSchema,
  DeliverySchema,
  type WebhookConfig,
  WebhookConfigSchema,
} from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import type { ConfigRow } from "../store/config-store.js";
import type { AttemptRow, DeliveryRow } from "../store/delivery-store.js";

/** A configuration as answered: whether secrets are set, never the secrets themselves. */
export function toConfigMessage(row: ConfigRow): WebhookConfig {
  return create(WebhookConfigSchema, {
    configId: row.config_id,
    partnerId: row.partner_id,
    url: row.url,
    events: row.events,
    active: row.active,
    hasSecret: row.secret_sealed !== null,
    hasBasicAuth: row.basic_auth_sealed !== null,
    basicAuthUsername: row.basic_auth_username ?? "",
    createdAt: timestampFromDate(row.created_at),
    updatedAt: timestampFromDate(row.updated_at),
    disabledReason: row.disabled_reason ?? "",
    ...(row.previous_secret_expires_at === null
      ? {}
      : { previousSecretExpiresAt: timestampFromDate(row.previous_secret_expires_at) }),
  });
}

export function toDeliveryMessage(row: DeliveryRow, attempts: readonly AttemptRow[]): Delivery {
  return create(DeliverySchema, {
    deliveryId: row.delivery_id,
    configId: row.config_id,
    eventId: row.event_id,
    eventType: row.event_type,
    txId: row.tx_id,
    status: row.status,
    attempts: row.attempts,
    ...(row.status === "pending" ? { nextAttemptAt: timestampFromDate(row.next_attempt_at) } : {}),
    ...(row.delivered_at === null ? {} : { deliveredAt: timestampFromDate(row.delivered_at) }),
    lastStatusCode: row.last_status_code ?? 0,
    lastError: row.last_error ?? "",
    history: attempts.map((a) =>
      create(DeliveryAttemptSchema, {
        attempt: a.attempt,
        statusCode: a.status_code,
        error: a.error ?? "",
        latencyMs: a.latency_ms,
        at: timestampFromDate(a.at),
      }),
    ),
    createdAt: timestampFromDate(row.created_at),
    responseBody: row.response_body ?? "",
  });
}
