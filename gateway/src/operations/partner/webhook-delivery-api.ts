/**
 * The delivery log of a partner's webhook receivers (`webhook-routes.ts`): each delivery with the history of
 * its attempts, and sending one again.
 */
import { defineOperations, ok } from "../../api/operation.js";
import { ClosedObject, Nullable, type Static, StringEnum, serviceRule, Type } from "../../api/schema.js";
import { DELIVERY_LIST_EXAMPLE, ERROR_EXAMPLES } from "../../openapi/openapi-examples.js";
import { EVENT_TYPES, RATE_LIMITED, WEBHOOK_TAGS } from "./webhook-api.js";

export const DELIVERY_STATES = ["pending", "delivering", "delivered", "dead"] as const;

const DeliveryAttempt = ClosedObject("DeliveryAttempt", {
  attempt: Type.Integer({ minimum: 1, description: "1 for the first attempt." }),
  status_code: Nullable(Type.Integer(), "The receiver's status; null when none."),
  error: Nullable.Text("Why the attempt failed without an answer."),
  latency_ms: Type.Integer({ minimum: 0, description: "Time to the answer." }),
  at: Nullable.Timestamp("When."),
});

export const WebhookDelivery = ClosedObject(
  "WebhookDelivery",
  {
    delivery_id: Type.String({ description: "Identifier.", examples: ["whd_01m7xx9n4e0tw3dnmj5m0vcwx5"] }),
    config_id: Type.String({ description: "The receiving config." }),
    event_id: Type.String({
      description: "The event's id, also sent as `webhook-id` and in the body: deduplicate by it.",
    }),
    event_type: StringEnum(EVENT_TYPES, { description: "Event kind." }),
    tx_id: Type.String({
      description:
        "The transaction; for `statement.closed`, the statement id; for `batch.completed`, the batch id.",
    }),
    status: StringEnum(DELIVERY_STATES, { description: "Delivery state." }),
    attempts: Type.Integer({ minimum: 0, description: "Attempts made so far." }),
    next_attempt_at: Nullable.Timestamp("Only while pending: when the next attempt is due."),
    delivered_at: Nullable.Timestamp("When a 2xx was received."),
    last_status_code: Nullable(Type.Integer(), "Status of the last attempt."),
    last_error: Nullable.Text("Error of the last attempt."),
    response_body: Nullable.Text("The receiver's last answer (at most 20 KB)."),
    created_at: Nullable.Timestamp("When the event was taken in."),
    history: Type.Array(DeliveryAttempt, { description: "Every attempt." }),
  },
  {
    description:
      "One notification of one event to one config. `pending` waits for its next attempt, `delivering` has an attempt in flight, `delivered` got a 2xx, `dead` exhausted the retry schedule (or got 410 Gone).",
  },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

const WebhookDeliveryList = ClosedObject("WebhookDeliveryList", {
  deliveries: Type.Array(WebhookDelivery, { description: "Newest first." }),
});

const DeliveryIdParams = Type.Object({ id: Type.String({ description: "The delivery's `delivery_id`." }) });

export const ListDeliveriesQuery = Type.Object({
  tx_id: Type.Optional(
    Type.String({ description: "Only deliveries of this transaction (or statement id, or batch id)." }),
  ),
  config_id: Type.Optional(Type.String({ description: "Only deliveries to this config." })),
  // The webhook service answers an unknown status (with the states it knows).
  status: Type.Optional(
    serviceRule(StringEnum(DELIVERY_STATES, { description: "Only deliveries in this state." })),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50, description: "Page size." })),
});

const operations = defineOperations(
  { tags: WEBHOOK_TAGS },
  {
    listWebhookDeliveries: {
      route: "GET /webhookDeliveries",
      summary: "Read the delivery log",
      description: "Deliveries newest first, each with the history of its attempts.",
      query: ListDeliveriesQuery,
      responses: {
        200: {
          description: "Deliveries.",
          schema: WebhookDeliveryList,
          examples: { onePayout: DELIVERY_LIST_EXAMPLE },
        },
      },
      errors: [["INVALID_FIELD", "unknown `status`, or `limit` outside 1–100"]],
      errorOptions: { examples: { 400: { badStatus: ERROR_EXAMPLES.invalidDeliveryStatus } } },
    },
    redeliverWebhook: {
      route: "POST /webhookDeliveries/{id}/redeliver",
      summary: "Send a delivery again",
      description:
        "Puts a dead, delivered or pending delivery back in the queue, due now, with the same event id and body bytes (receivers deduplicate by `event_id`). It is sent under the same per-config limits and fair scheduling as every delivery. Rate-limited per partner (120 a minute by default). Send no body (or `{}`).",
      pathParams: DeliveryIdParams,
      responses: ok("The delivery, pending again.", WebhookDelivery),
      errors: [
        ["DELIVERY_NOT_FOUND", "no such delivery among yours"],
        ["DELIVERY_IN_PROGRESS", "an attempt is in flight right now"],
        ["WEBHOOK_CONFIG_INACTIVE", "the delivery's config is inactive: reactivate it first"],
        RATE_LIMITED("redeliveries"),
      ],
      errorOptions: { examples: { 409: { inactive: ERROR_EXAMPLES.webhookConfigInactive } } },
    },
  },
);
export const { listWebhookDeliveries, redeliverWebhook } = operations;
export const WEBHOOK_DELIVERY_OPERATIONS = Object.values(operations);
