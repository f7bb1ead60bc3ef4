/**
 * JSON shapes of the console's admin routes. Amounts are decimal strings at full precision (as in the admin API),
 * times ISO 8601. Nothing secret leaves here: account numbers and payment keys are masked to their last
 * four characters, the sender is reduced to name and country, webhook secrets are only `has_secret`.
 */

import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { maskAccount } from "@payouts/platform/logging/logger";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import { statusWireName } from "@payouts/platform/transaction-status";
import type { Destination, Quote } from "@payouts/proto/payouts/common/v1/common_pb";
import type { Movement } from "@payouts/proto/payouts/ledger/v1/ledger_admin_pb";
import type { StatusChange, Transaction } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type {
  ConfigRecord,
  DeliveryRecord,
  ReceiverHealth as ReceiverHealthMessage,
} from "@payouts/proto/payouts/webhooks/v1/webhooks_admin_pb";
import { wireFields } from "../http/wire-fields.js";
import type {
  TransactionDetail,
  TransactionSummary,
  WebhookDelivery,
} from "../operations/admin/console-transaction-api.js";
import type { AdminWebhookConfig, ReceiverHealth } from "../operations/admin/console-webhook-api.js";

type Status = TransactionSummary["status"];
type MovementShape = TransactionDetail["ledger_movements"][number];

/** One row of the transaction search. */
export function renderTransactionSummary(tx: Transaction): TransactionSummary {
  const d = tx.destination;
  return {
    tx_id: tx.txId,
    partner_id: tx.partnerId,
    partner_transaction_id: tx.partnerTransactionId,
    status: statusWireName(tx.status) as Status,
    country: d?.countryCode ?? "",
    currency: tx.currency,
    amount: tx.amount || null,
    amount_usd: tx.quote?.amountUsd ?? null,
    fee: tx.quote?.fee ?? null,
    total_usd: tx.quote?.totalUsd ?? null,
    payment_method: d?.paymentMethod ?? "",
    destination_type: d?.destinationType ?? "",
    created_at: timestampIso(tx.createdAt),
    updated_at: timestampIso(tx.updatedAt),
  };
}

/** The transaction page: the summary plus everything support needs to answer "what happened". */
export function renderTransactionDetail(
  tx: Transaction,
  movements: readonly Movement[],
  deliveries: readonly DeliveryRecord[],
): TransactionDetail {
  return {
    ...renderTransactionSummary(tx),
    customer_id: tx.customerId,
    client_id: tx.partnerAppId,
    destination: renderDestination(tx.destination),
    quote: renderQuote(tx.quote),
    provider_reference: tx.providerReference,
    refund_reason: tx.refundReason,
    failure_reason: tx.failureReason,
    status_history: tx.history.map(renderStatusChange),
    ledger_movements: movements.map(renderMovement),
    webhook_deliveries: deliveries.map(renderDelivery),
  };
}

const MASKED_RECIPIENT_KEYS = new Set(["account_no", "account_number", "accountNo", "accountNumber"]);
const SENDER_KEYS = ["name_first", "name_last", "country"];

function renderDestination(d: Destination | undefined) {
  if (!d) return null;
  return {
    country: d.countryCode,
    currency: d.currency,
    payment_method: d.paymentMethod,
    destination_type: d.destinationType,
    payment_destination: d.paymentDestination ? maskAccount(d.paymentDestination) : "",
    payment_destination_code: d.paymentDestinationCode,
    institution_name: d.institutionName,
    account_type: d.accountType,
    account_reference: d.accountReference ? maskAccount(d.accountReference) : "",
    is_business: d.isBusiness,
    merchant_name: d.merchantName,
    source: d.source,
    recipient: d.recipient ? maskRecipient(d.recipient) : null,
    sender: d.sender ? pick(d.sender, SENDER_KEYS) : null,
  };
}

function maskRecipient(recipient: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(recipient)) {
    out[key] = MASKED_RECIPIENT_KEYS.has(key) ? maskAccount(String(value)) : (value as JsonValue);
  }
  return out;
}

function pick(value: JsonObject, keys: readonly string[]): JsonObject {
  return Object.fromEntries(Object.entries(value).filter(([k]) => keys.includes(k)));
}

function renderQuote(q: Quote | undefined) {
  return q ? { ...wireFields(q), expires_at: timestampIso(q.expiresAt) } : null;
}

function renderStatusChange(change: StatusChange): TransactionDetail["status_history"][number] {
  return {
    from: change.from === TransactionStatus.UNSPECIFIED ? null : (statusWireName(change.from) as Status),
    to: statusWireName(change.to) as Status,
    reason: change.reason,
    at: timestampIso(change.at),
  };
}

export function renderMovement(m: Movement): MovementShape {
  return {
    movement_id: m.movementId,
    kind: m.kind as MovementShape["kind"],
    reference: m.reference,
    created_at: timestampIso(m.createdAt),
    lines: m.lines.map((l) => ({
      account: l.account as MovementShape["lines"][number]["account"],
      amount_usd: l.amountUsd,
    })),
  };
}

/** A delivery with every attempt: its status code (null when none arrived), duration and error. */
export function renderDelivery(record: DeliveryRecord): WebhookDelivery {
  const d = record.delivery;
  return {
    delivery_id: d?.deliveryId ?? "",
    partner_id: record.partnerId,
    config_id: d?.configId ?? "",
    event_id: d?.eventId ?? "",
    event_type: d?.eventType ?? "",
    tx_id: d?.txId ?? "",
    status: (d?.status ?? "pending") as WebhookDelivery["status"],
    attempt_count: d?.attempts ?? 0,
    next_attempt_at: timestampIso(d?.nextAttemptAt),
    delivered_at: timestampIso(d?.deliveredAt),
    last_status_code: d?.lastStatusCode ? d.lastStatusCode : null,
    last_error: d?.lastError || null,
    response_body: d?.responseBody || null,
    created_at: timestampIso(d?.createdAt),
    attempts: (d?.history ?? []).map((a) => ({
      attempt: a.attempt,
      status_code: a.statusCode === 0 ? null : a.statusCode,
      duration_ms: a.latencyMs,
      error: a.error || null,
      attempted_at: timestampIso(a.at),
    })),
  };
}

/** A receiver as operators see it: never its secret or password, only whether they are set. */
export function renderConfig(record: ConfigRecord): AdminWebhookConfig {
  const c = record.config;
  return {
    config_id: c?.configId ?? "",
    partner_id: c?.partnerId ?? "",
    url: c?.url ?? "",
    events: c?.events ?? [],
    enabled: c?.active ?? false,
    disabled_reason: c?.disabledReason || null,
    has_secret: c?.hasSecret ?? false,
    basic_auth: c?.hasBasicAuth ? { username: c.basicAuthUsername } : null,
    previous_secret_expires_at: timestampIso(c?.previousSecretExpiresAt),
    pending_deliveries: Number(record.pendingDeliveries),
    dead_deliveries: Number(record.deadDeliveries),
    created_at: timestampIso(c?.createdAt),
    updated_at: timestampIso(c?.updatedAt),
  };
}

/** A receiver's circuit breaker, pause and backlog. */
export function renderReceiverHealth(r: ReceiverHealthMessage): ReceiverHealth {
  return {
    config_id: r.configId,
    partner_id: r.partnerId,
    url: r.url,
    enabled: r.active,
    paused: r.paused,
    circuit_state: r.circuitState as ReceiverHealth["circuit_state"],
    circuit_failures: r.circuitFailures,
    circuit_opened_at: timestampIso(r.circuitOpenedAt),
    circuit_retry_at: timestampIso(r.circuitRetryAt),
    pending: Number(r.pending),
    oldest_pending_age_seconds: Number(r.oldestPendingAgeSeconds),
    delivering: Number(r.delivering),
  };
}
