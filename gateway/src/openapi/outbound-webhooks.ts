/**
 * The OpenAPI 3.1 `webhooks` section: the notifications the webhooks service POSTs to partner receivers
 * (services/webhooks: `domain/payload.ts`, `signing/signature.ts`, `domain/event-kinds.ts`).
 */

import { NOTIFICATION_EXAMPLES } from "./openapi-examples.js";
import type { Example, Parameter, PathItem, Response } from "./openapi-types.js";
import { schemaRef } from "./schema-ref.js";

const header = (name: string, description: string, required: boolean, example?: string): Parameter => ({
  name,
  in: "header",
  required,
  description,
  schema: { type: "string" },
  ...(example === undefined ? {} : { example }),
});

/** Headers of every notification; `SERVICE` is the deployment's WEBHOOK_HEADER_BRAND. */
const NOTIFICATION_HEADERS: readonly Parameter[] = [
  header(
    "User-Agent",
    "`SERVICE-Webhook/<APP_VERSION>`: the brand and the platform's version.",
    true,
    "SERVICE-Webhook/0.1.0",
  ),
  header(
    "X-SERVICE-Event-Id",
    "The event id, as `event_id` in the body; stable across retries.",
    true,
    "evt_01m7xx9krh0y9g66pndrqk5bj5",
  ),
  header("X-SERVICE-Event-Type", "The event kind.", true, "transaction.success"),
  header("X-SERVICE-Attempt", "1 for the first attempt; counts retries and redeliveries.", true, "1"),
  header(
    "X-SERVICE-Signature",
    'Only when the config has a secret: base64(HMAC-SHA256(key = UTF-8 bytes of the secret, message = the exact raw body bytes)). Base64, not hex. Verify over the raw bytes as received, never over re-serialised JSON, and compare in constant time. Test vector: secret `partner-webhook-secret`, body `{"tx_id":"tx_01HQ","status":"SUCCESS","fee":0.50}` → `4AbbxHPz7+vXZISqBbGriE6Hzq68N7u+32S+UgGqcww=`. After a secret rotation it is signed with the new secret.',
    false,
    "VPPDJtocLRI2E0RkcOWMjR0wkIucJQPdN5w9ODSI2o0=",
  ),
  header(
    "webhook-id",
    "Standard Webhooks, only with a secret: the event id.",
    false,
    "evt_01m7xx9krh0y9g66pndrqk5bj5",
  ),
  header(
    "webhook-timestamp",
    "Standard Webhooks, only with a secret: Unix seconds of this attempt. Reject values more than 5 minutes from your clock.",
    false,
    "1795226390",
  ),
  header(
    "webhook-signature",
    'Standard Webhooks, only with a secret: `v1,` + base64(HMAC-SHA256(same key, "{webhook-id}.{webhook-timestamp}." + raw body)). Standard Webhooks libraries take the key as `whsec_` + base64(secret). Test vector: id `evt_1`, timestamp `1700000000`, the body above → `v1,JSQq/wO3+WMtA6RZ6gUxuO2kD75Pgcv6t3NvLcQkmgE=`. During a secret rotation\'s grace period it carries two space-separated entries, `v1,<new> v1,<old>`: accept the message if any entry verifies.',
    false,
    "v1,A2J9fUxGhbQuUg8LE26vsYCEvbCzI2tZgxLllSyCob4=",
  ),
];

const DELIVERY_RULES = `\`Content-Type: application/json\`; \`Authorization: Basic …\` when the config has \`basic_auth\`. Sent to every active config of the partner whose \`events\` filter matches (\`*\` matches every event type, including ones added later such as \`statement.closed\` and \`batch.completed\`). Delivery is at least once: deduplicate by \`event_id\`. For one transaction and one config, events arrive in order (a success before its refund). Answer 2xx within 10 s and do slow work afterwards. Any other answer, a timeout or a connection error is retried (default ≈ 0 s, 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h, 24 h, 48 h, ±20 % jitter; \`Retry-After\` is honoured up to twice the scheduled delay); after the last attempt the delivery is \`dead\` and can be redelivered. Redirects are not followed. Answer 410 Gone only to retire the receiver: the config is deactivated.`;

const RETRIED: Response = { description: "Any other status: the notification is retried on the schedule." };
const GONE: Response = { description: "Gone: the delivery stops and the config is deactivated." };

/** A 2xx the receiver may answer with an empty JSON object. */
const emptyAnswer = (description: string): Response => ({
  description,
  content: {
    "application/json": { schema: schemaRef("SuccessReceiverAnswer"), examples: { empty: { value: {} } } },
  },
});

function notification(options: {
  operationId: string;
  path: string;
  summary: string;
  when: string;
  schema: string;
  examples: Record<string, Example>;
  answer: Response;
}): PathItem {
  return {
    post: {
      operationId: options.operationId,
      tags: ["Notifications"],
      summary: options.summary,
      description: `\`POST {url}${options.path}\`, where \`url\` is the config's base URL. ${options.when}\n\n${DELIVERY_RULES}`,
      security: [{}, { receiverBasicAuth: [] }],
      parameters: NOTIFICATION_HEADERS,
      requestBody: {
        required: true,
        content: { "application/json": { schema: schemaRef(options.schema), examples: options.examples } },
      },
      responses: { "200": options.answer, "410": GONE, default: RETRIED },
    },
  };
}

export const OUTBOUND_WEBHOOKS: Readonly<Record<string, PathItem>> = {
  "transaction.success": notification({
    operationId: "transactionSuccess",
    path: "/webhooks/transactions/success",
    summary: "A payout succeeded",
    when: 'Sent after the rail reports success and the transaction becomes SUCCESS. Test notifications (`POST /webhookConfigs/{id}/test`) come here too, marked `"test": true`.',
    schema: "TransactionSuccessNotification",
    examples: {
      success: NOTIFICATION_EXAMPLES.success,
      batchItem: NOTIFICATION_EXAMPLES.batchItemSuccess,
      test: NOTIFICATION_EXAMPLES.test,
    },
    answer: emptyAnswer(
      "Taken in. The expected answer is an empty JSON object; any 2xx counts as delivered.",
    ),
  }),
  "transaction.refunded": notification({
    operationId: "transactionRefunded",
    path: "/webhooks/transactions/refunded",
    summary: "A successful payout was refunded",
    when: "Sent after operations refund a SUCCESS transaction (REFUNDED; the partner's balance is credited the whole debited total).",
    schema: "TransactionRefundedNotification",
    examples: { refunded: NOTIFICATION_EXAMPLES.refunded },
    answer: {
      description:
        "Taken in. The expected answer is `{received, message}` (kept in the delivery log); any 2xx counts as delivered.",
      content: {
        "application/json": {
          schema: schemaRef("RefundedReceiverAnswer"),
          examples: { received: { value: { received: true, message: "ok" } } },
        },
      },
    },
  }),
  "transaction.failed": notification({
    operationId: "transactionFailed",
    path: "/webhooks/transactions/failed",
    summary: "A payout failed",
    when: "Sent after the rail fails a PROCESSING payout (FAILED; the debit is reversed).",
    schema: "TransactionFailedNotification",
    examples: { failed: NOTIFICATION_EXAMPLES.failed },
    answer: emptyAnswer(
      "Taken in; any 2xx counts as delivered (an empty JSON object, like success, is fine).",
    ),
  }),
  "statement.closed": notification({
    operationId: "statementClosed",
    path: "/webhooks/statements/closed",
    summary: "A daily statement closed",
    when: "Sent once when the partner's day closes (after local midnight in the statement time zone plus a grace period): the frozen summary of `GET /statements/daily/{date}`. Delivery log entries show the `statement_id` as their `tx_id`.",
    schema: "StatementClosedNotification",
    examples: { closed: NOTIFICATION_EXAMPLES.statementClosed },
    answer: emptyAnswer("Taken in; any 2xx counts as delivered (an empty JSON object is fine)."),
  }),
  "batch.completed": notification({
    operationId: "batchCompleted",
    path: "/webhooks/batches/completed",
    summary: "A bulk payout completed",
    when: "Sent once when every funded item of a batch reached its end (SUCCESS or FAILED) and the unpaid remainder went back to the balance: its counts by outcome and its amounts (`GET /batches/{batch_id}` and its items give the full report). Delivery log entries show the `batch_id` as their `tx_id`. Each item's own `transaction.success` or `transaction.failed` notification carries `batch_id` and `item_ref`.",
    schema: "BatchCompletedNotification",
    examples: { completed: NOTIFICATION_EXAMPLES.batchCompleted },
    answer: emptyAnswer("Taken in; any 2xx counts as delivered (an empty JSON object is fine)."),
  }),
};
