/** Paths of partner-managed webhook receivers and their delivery log (`routes/webhook-routes.ts`). */
import { COMMON_PARAMETERS, headerRef, jsonBody, jsonResponse } from "./openapi-components.js";
import { type ErrorCase, partnerErrors } from "./openapi-errors.js";
import {
  DELIVERY_LIST_EXAMPLE,
  ERROR_EXAMPLES,
  WEBHOOK_CONFIG_EXAMPLE,
  WEBHOOK_CONFIG_LIST_EXAMPLE,
  WEBHOOK_CONFIG_REQUEST_EXAMPLE,
  WEBHOOK_SECRET_ROTATION_EXAMPLE,
  WEBHOOK_TEST_EXAMPLE,
} from "./openapi-examples.js";
import type { Parameter, PathItem } from "./openapi-types.js";

const idParameter = (description: string): Parameter => ({
  name: "id",
  in: "path",
  required: true,
  description,
  schema: { type: "string" },
});
const CONFIG_ID = idParameter("The config's `config_id`.");
const DELIVERY_ID = idParameter("The delivery's `delivery_id`.");

const CONFIG_NOT_FOUND: ErrorCase = [
  "WEBHOOK_CONFIG_NOT_FOUND",
  "no such config among yours (another partner's id included)",
];
const CONFIG_FIELD_CASES: readonly ErrorCase[] = [
  [
    "INVALID_FIELD",
    "`url` is not an acceptable receiver URL, `events` is empty or has an unknown kind, `secret` is not 16–256 characters, `basic_auth` is malformed, or a field has the wrong type",
  ],
];

const RATE_LIMITED = (what: string): ErrorCase => [
  "RATE_LIMIT_EXCEEDED",
  `your per-minute allowance of ${what} is used up; retry after \`Retry-After\` seconds`,
];

const filter = (name: string, description: string, schema: Parameter["schema"]): Parameter => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});

export const WEBHOOK_CONFIG_PATHS: Readonly<Record<string, PathItem>> = {
  "/webhookConfigs": {
    post: {
      operationId: "createWebhookConfig",
      tags: ["Webhooks"],
      summary: "Register a webhook receiver",
      description:
        "Notifications of the chosen event kinds are sent to `{url}/webhooks/transactions/<kind>` (see the `webhooks` section). With a `secret` they are signed; with `basic_auth` they carry `Authorization: Basic`. Receivers resolving to private addresses are refused at delivery time unless the deployment allows them. A partner may have at most 10 configs (a deployment setting).",
      parameters: [...COMMON_PARAMETERS],
      requestBody: jsonBody("WebhookConfigCreateRequest", { signed: WEBHOOK_CONFIG_REQUEST_EXAMPLE }),
      responses: {
        "201": jsonResponse("The config (secrets are never returned).", "WebhookConfig", {
          created: WEBHOOK_CONFIG_EXAMPLE,
        }),
        ...partnerErrors(
          [
            ["MISSING_REQUIRED_FIELD", "`url` is absent"],
            ...CONFIG_FIELD_CASES,
            [
              "WEBHOOK_CONFIG_LIMIT_REACHED",
              "you already have the most configs a partner may have (10 by default): delete one first",
            ],
          ],
          { body: true },
        ),
      },
    },
    get: {
      operationId: "listWebhookConfigs",
      tags: ["Webhooks"],
      summary: "List your webhook receivers",
      parameters: [...COMMON_PARAMETERS],
      responses: {
        "200": jsonResponse("Every config, oldest first.", "WebhookConfigList", {
          one: WEBHOOK_CONFIG_LIST_EXAMPLE,
        }),
        ...partnerErrors([]),
      },
    },
  },
  "/webhookConfigs/{id}": {
    patch: {
      operationId: "updateWebhookConfig",
      tags: ["Webhooks"],
      summary: "Change a webhook receiver",
      parameters: [...COMMON_PARAMETERS, CONFIG_ID],
      requestBody: jsonBody("WebhookConfigUpdateRequest"),
      responses: {
        "200": jsonResponse("The config after the change.", "WebhookConfig"),
        ...partnerErrors([...CONFIG_FIELD_CASES, CONFIG_NOT_FOUND], {
          body: true,
          examples: { 404: { notFound: ERROR_EXAMPLES.webhookConfigNotFound } },
        }),
      },
    },
    delete: {
      operationId: "deleteWebhookConfig",
      tags: ["Webhooks"],
      summary: "Delete a webhook receiver and its delivery log",
      parameters: [...COMMON_PARAMETERS, CONFIG_ID],
      responses: {
        "204": { description: "Deleted.", headers: { "X-Request-Id": headerRef("requestId") } },
        ...partnerErrors([CONFIG_NOT_FOUND], {
          examples: { 404: { notFound: ERROR_EXAMPLES.webhookConfigNotFound } },
        }),
      },
    },
  },
  "/webhookConfigs/{id}/rotateSecret": {
    post: {
      operationId: "rotateWebhookSecret",
      tags: ["Webhooks"],
      summary: "Rotate the signing secret, with a grace period",
      description:
        "Makes a new signing secret current — the one you send, or one the service generates — and answers it in `secret`, this once only (store it now; it is never returned again). The replaced secret keeps signing beside it for `grace_period_seconds` (default 86,400 = 24 h, at most 7 days; 0 drops it at once): during that period `webhook-signature` carries two entries, `v1,<new> v1,<old>`, so a receiver verifying Standard Webhooks signatures can switch to the new secret at any moment. `X-SERVICE-Signature` is a single value and carries the new secret's signature from the rotation on. Rotating again during a grace period drops the older secret. Setting `secret` with PATCH replaces it at once, without a grace period. Secrets are stored sealed.",
      parameters: [...COMMON_PARAMETERS, CONFIG_ID],
      requestBody: { ...jsonBody("WebhookSecretRotationRequest"), required: false },
      responses: {
        "200": jsonResponse("The config, with the new secret this once.", "WebhookSecretRotation", {
          generated: WEBHOOK_SECRET_ROTATION_EXAMPLE,
        }),
        ...partnerErrors(
          [
            [
              "INVALID_FIELD",
              "`secret` is not 16–256 characters without control characters, or `grace_period_seconds` is not an integer from 0 to 604800",
            ],
            CONFIG_NOT_FOUND,
          ],
          { body: true, examples: { 404: { notFound: ERROR_EXAMPLES.webhookConfigNotFound } } },
        ),
      },
    },
  },
  "/webhookConfigs/{id}/test": {
    post: {
      operationId: "testWebhookConfig",
      tags: ["Webhooks"],
      summary: "Send a test notification now",
      description:
        "Sends a synthetic `transaction.success` notification marked `\"test\": true`, signed and authenticated like a real one, to `{url}/webhooks/transactions/success`, and reports the receiver's answer. It is queued like any delivery and shares the config's limit of 4 attempts in flight: if those slots stay busy for 2 s it is not sent (`delivered: false`, `error` says so). Not recorded in the delivery log; never disables the config. Rate-limited per partner (10 a minute by default). Send no body (or `{}`).",
      parameters: [...COMMON_PARAMETERS, CONFIG_ID],
      responses: {
        "200": jsonResponse("What the receiver answered.", "WebhookTestResult", {
          delivered: WEBHOOK_TEST_EXAMPLE,
        }),
        ...partnerErrors(
          [
            CONFIG_NOT_FOUND,
            ["WEBHOOK_CONFIG_INACTIVE", "the config is inactive: reactivate it first"],
            RATE_LIMITED("test notifications"),
          ],
          { body: true },
        ),
      },
    },
  },
  "/webhookDeliveries": {
    get: {
      operationId: "listWebhookDeliveries",
      tags: ["Webhooks"],
      summary: "Read the delivery log",
      description: "Deliveries newest first, each with the history of its attempts.",
      parameters: [
        ...COMMON_PARAMETERS,
        filter("tx_id", "Only deliveries of this transaction.", { type: "string" }),
        filter("config_id", "Only deliveries to this config.", { type: "string" }),
        filter("status", "Only deliveries in this state.", {
          type: "string",
          enum: ["pending", "delivering", "delivered", "dead"],
        }),
        filter("limit", "Page size.", { type: "integer", minimum: 1, maximum: 100, default: 50 }),
      ],
      responses: {
        "200": jsonResponse("Deliveries.", "WebhookDeliveryList", { onePayout: DELIVERY_LIST_EXAMPLE }),
        ...partnerErrors([["INVALID_FIELD", "unknown `status`, or `limit` outside 1–100"]], {
          examples: { 400: { badStatus: ERROR_EXAMPLES.invalidDeliveryStatus } },
        }),
      },
    },
  },
  "/webhookDeliveries/{id}/redeliver": {
    post: {
      operationId: "redeliverWebhook",
      tags: ["Webhooks"],
      summary: "Send a delivery again",
      description:
        "Puts a dead, delivered or pending delivery back in the queue, due now, with the same event id and body bytes (receivers deduplicate by `event_id`). It is sent under the same per-config limits and fair scheduling as every delivery. Rate-limited per partner (120 a minute by default). Send no body (or `{}`).",
      parameters: [...COMMON_PARAMETERS, DELIVERY_ID],
      responses: {
        "200": jsonResponse("The delivery, pending again.", "WebhookDelivery"),
        ...partnerErrors(
          [
            ["DELIVERY_NOT_FOUND", "no such delivery among yours"],
            ["DELIVERY_IN_PROGRESS", "an attempt is in flight right now"],
            ["WEBHOOK_CONFIG_INACTIVE", "the delivery's config is inactive: reactivate it first"],
            RATE_LIMITED("redeliveries"),
          ],
          { body: true, examples: { 409: { inactive: ERROR_EXAMPLES.webhookConfigInactive } } },
        ),
      },
    },
  },
};
