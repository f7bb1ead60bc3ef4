/**
 * Shapes and operations of partner-managed webhook receivers (`webhook-routes.ts`; their delivery log is in
 * `webhook-delivery-api.ts`). The values' rules (URL, event kinds, secret length) are the webhook
 * dispatcher's (`serviceRule`); the gateway checks the JSON types.
 */
import { defineOperations, ok } from "../../api/operation.js";
import {
  ClosedObject,
  component,
  Nullable,
  type Static,
  StringEnum,
  serviceRule,
  Timestamp,
  Type,
} from "../../api/schema.js";
import type { ErrorCase } from "../../openapi/openapi-errors.js";
import {
  ERROR_EXAMPLES,
  WEBHOOK_CONFIG_EXAMPLE,
  WEBHOOK_CONFIG_LIST_EXAMPLE,
  WEBHOOK_CONFIG_REQUEST_EXAMPLE,
  WEBHOOK_SECRET_ROTATION_EXAMPLE,
  WEBHOOK_TEST_EXAMPLE,
} from "../../openapi/openapi-examples.js";

export const EVENT_TYPES = [
  "transaction.success",
  "transaction.refunded",
  "transaction.failed",
  "statement.closed",
  "batch.completed",
] as const;

const EventFilter = StringEnum([...EVENT_TYPES, "*"]);

const BasicAuthInput = serviceRule(
  Type.Object(
    {
      username: Type.String({ minLength: 1, maxLength: 256, description: "User name." }),
      password: Type.String({ minLength: 1, maxLength: 256, writeOnly: true, description: "Password." }),
    },
    {
      description:
        "Credentials sent to the receiver as `Authorization: Basic …`. The password is write-only. User name non-empty without `:`, password non-empty, both ≤ 256 characters.",
    },
  ),
);
const EVENTS_DESCRIPTION =
  "Event kinds to receive; `*` is every kind, including kinds added later. Case-sensitive.";
// Required here; whether it is an acceptable receiver is the dispatcher's rule (format is not checked here).
const UrlField = Type.String({
  format: "uri",
  description:
    "The receiver's base URL: notifications go to `{url}/webhooks/transactions/success`, `/refunded` and `/failed`, `{url}/webhooks/statements/closed` and `{url}/webhooks/batches/completed`. https (http only where private URLs are allowed); no credentials, query or fragment; not already ending in `/webhooks/transactions/<kind>`.",
});
const SecretField = serviceRule(
  Type.String({
    minLength: 16,
    maxLength: 256,
    writeOnly: true,
    description:
      "Signing secret, 16–256 characters without control characters. Write-only: answers say `has_secret`.",
  }),
);

const WebhookConfigCreateRequest = component(
  "WebhookConfigCreateRequest",
  Type.Object({
    url: UrlField,
    events: Type.Optional(
      serviceRule(Type.Array(EventFilter, { minItems: 1, default: ["*"], description: EVENTS_DESCRIPTION })),
    ),
    active: Type.Optional(Type.Boolean({ default: true, description: "Inactive configs receive nothing." })),
    secret: Type.Optional(SecretField),
    basic_auth: Type.Optional(BasicAuthInput),
  }),
);

const WebhookConfigUpdateRequest = component(
  "WebhookConfigUpdateRequest",
  Type.Object(
    {
      url: Type.Optional(UrlField),
      events: Type.Optional(
        serviceRule(Type.Array(EventFilter, { minItems: 1, description: EVENTS_DESCRIPTION })),
      ),
      active: Type.Optional(Type.Boolean({ description: "Activate or deactivate." })),
      secret: Type.Optional(Nullable(SecretField)),
      basic_auth: Type.Optional(Nullable(BasicAuthInput)),
    },
    {
      description:
        'Partial update: absent fields are left as they are. `secret: null` (or `""`) and `basic_auth: null` remove them; `active: true` also clears `disabled_reason`.',
    },
  ),
);

const CONFIG_FIELDS = {
  config_id: Type.String({ description: "Identifier.", examples: ["whc_01m7xx9g5rjdhf24yzyd2vjq4m"] }),
  url: Type.String({ description: "The receiver's base URL." }),
  events: Type.Array(EventFilter),
  active: Type.Boolean({ description: "Whether notifications are sent." }),
  has_secret: Type.Boolean({ description: "Whether notifications are signed." }),
  basic_auth: Nullable(
    Type.Object({ username: Type.String({ description: "User name." }) }, { additionalProperties: false }),
    "The basic-auth user name, or null; the password is never returned.",
  ),
  disabled_reason: Nullable.Text("Why the service deactivated the config (the receiver answered 410 Gone)."),
  previous_secret_expires_at: Nullable(
    Timestamp(
      "Set after a secret rotation while the replaced secret still signs beside the new one (a second `webhook-signature` entry); null otherwise.",
    ),
  ),
  created_at: Nullable.Timestamp("Creation time."),
  updated_at: Nullable.Timestamp("Last change."),
};

export const WebhookConfig = ClosedObject("WebhookConfig", CONFIG_FIELDS);
export type WebhookConfig = Static<typeof WebhookConfig>;

const WebhookSecretRotationRequest = ClosedObject("WebhookSecretRotationRequest", {
  secret: Type.Optional(
    serviceRule(
      Type.String({
        minLength: 16,
        maxLength: 256,
        description:
          "The new signing secret, 16–256 characters without control characters; absent: the service generates one (256 random bits, base64url).",
      }),
    ),
  ),
  grace_period_seconds: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 604800,
      default: 86400,
      description: "How long the current secret keeps signing beside the new one; 0 drops it at once.",
    }),
  ),
});

const WebhookSecretRotation = ClosedObject("WebhookSecretRotation", {
  ...CONFIG_FIELDS,
  secret: Type.String({
    description: "The new signing secret. Answered this once, never again: store it now.",
  }),
});
export type WebhookSecretRotation = Static<typeof WebhookSecretRotation>;

const WebhookConfigList = ClosedObject("WebhookConfigList", {
  webhook_configs: Type.Array(WebhookConfig, { description: "Oldest first." }),
});

export const WebhookTestResult = ClosedObject(
  "WebhookTestResult",
  {
    delivered: Type.Boolean({ description: "True when the receiver answered 2xx." }),
    status_code: Nullable(Type.Integer(), "The receiver's HTTP status; null when none."),
    latency_ms: Type.Integer({ minimum: 0, description: "Time to the answer." }),
    error: Nullable.Text("Transport error, refused address or timeout; null when the receiver answered."),
  },
  {
    description: "Whether the receiver took the test, its status and timing; never its response body.",
  },
);
export type WebhookTestResult = Static<typeof WebhookTestResult>;

const ConfigIdParams = Type.Object({ id: Type.String({ description: "The config's `config_id`." }) });

const CONFIG_NOT_FOUND: ErrorCase = [
  "WEBHOOK_CONFIG_NOT_FOUND",
  "no such config among yours (another partner's id included)",
];
const CONFIG_FIELD_CASE: ErrorCase = [
  "INVALID_FIELD",
  "`url` is not an acceptable receiver URL, `events` is empty or has an unknown kind, `secret` is not 16–256 characters, `basic_auth` is malformed, or a field has the wrong type",
];
export const RATE_LIMITED = (what: string): ErrorCase => [
  "RATE_LIMIT_EXCEEDED",
  `your per-minute allowance of ${what} is used up; retry after \`Retry-After\` seconds`,
];
const NOT_FOUND_EXAMPLE = { 404: { notFound: ERROR_EXAMPLES.webhookConfigNotFound } };
export const WEBHOOK_TAGS = ["Webhooks"];

const operations = defineOperations(
  { tags: WEBHOOK_TAGS },
  {
    createWebhookConfig: {
      route: "POST /webhookConfigs",
      summary: "Register a webhook receiver",
      description:
        "Notifications of the chosen event kinds are sent to `{url}/webhooks/<resource>/<kind>`, e.g. `{url}/webhooks/transactions/success` (see the `webhooks` section for each kind's path). With a `secret` they are signed; with `basic_auth` they carry `Authorization: Basic`. Receivers resolving to private addresses are refused at delivery time unless the deployment allows them. A partner may have at most 10 configs (a deployment setting).",
      body: WebhookConfigCreateRequest,
      bodyExamples: { signed: WEBHOOK_CONFIG_REQUEST_EXAMPLE },
      responses: {
        201: {
          description: "The config (secrets are never returned).",
          schema: WebhookConfig,
          examples: { created: WEBHOOK_CONFIG_EXAMPLE },
        },
      },
      errors: [
        ["MISSING_REQUIRED_FIELD", "`url` is absent"],
        CONFIG_FIELD_CASE,
        [
          "WEBHOOK_CONFIG_LIMIT_REACHED",
          "you already have the most configs a partner may have (10 by default): delete one first",
        ],
      ],
    },
    listWebhookConfigs: {
      route: "GET /webhookConfigs",
      summary: "List your webhook receivers",
      responses: {
        200: {
          description: "Every config, oldest first.",
          schema: WebhookConfigList,
          examples: { one: WEBHOOK_CONFIG_LIST_EXAMPLE },
        },
      },
      errors: [],
    },
    updateWebhookConfig: {
      route: "PATCH /webhookConfigs/{id}",
      summary: "Change a webhook receiver",
      pathParams: ConfigIdParams,
      body: WebhookConfigUpdateRequest,
      responses: ok("The config after the change.", WebhookConfig),
      errors: [
        CONFIG_FIELD_CASE,
        CONFIG_NOT_FOUND,
        [
          "WEBHOOK_CONFIG_DISABLED_BY_OPERATOR",
          "`active: true` on a config an operator disabled (its `disabled_reason` says why); only an operator enables it again",
        ],
      ],
      errorOptions: { examples: NOT_FOUND_EXAMPLE },
    },
    deleteWebhookConfig: {
      route: "DELETE /webhookConfigs/{id}",
      summary: "Delete a webhook receiver and its delivery log",
      pathParams: ConfigIdParams,
      responses: { 204: { description: "Deleted." } },
      errors: [CONFIG_NOT_FOUND],
      errorOptions: { examples: NOT_FOUND_EXAMPLE },
    },
    rotateWebhookSecret: {
      route: "POST /webhookConfigs/{id}/rotateSecret",
      summary: "Rotate the signing secret, with a grace period",
      description:
        "Makes a new signing secret current — the one you send, or one the service generates — and answers it in `secret`, this once only (store it now; it is never returned again). The replaced secret keeps signing beside it for `grace_period_seconds` (default 86,400 = 24 h, at most 7 days; 0 drops it at once): during that period `webhook-signature` carries two entries, `v1,<new> v1,<old>`, so a receiver verifying Standard Webhooks signatures can switch to the new secret at any moment. `X-SERVICE-Signature` is a single value and carries the new secret's signature from the rotation on. Rotating again during a grace period drops the older secret. Setting `secret` with PATCH replaces it at once, without a grace period. Secrets are stored sealed.",
      pathParams: ConfigIdParams,
      body: WebhookSecretRotationRequest,
      responses: {
        200: {
          description: "The config, with the new secret this once.",
          schema: WebhookSecretRotation,
          examples: { generated: WEBHOOK_SECRET_ROTATION_EXAMPLE },
        },
      },
      errors: [
        [
          "INVALID_FIELD",
          "`secret` is not 16–256 characters without control characters, or `grace_period_seconds` is not an integer from 0 to 604800",
        ],
        CONFIG_NOT_FOUND,
      ],
      errorOptions: { examples: NOT_FOUND_EXAMPLE },
    },
    testWebhookConfig: {
      route: "POST /webhookConfigs/{id}/test",
      summary: "Send a test notification now",
      description:
        "Sends a synthetic `transaction.success` notification marked `\"test\": true`, signed and authenticated like a real one, to `{url}/webhooks/transactions/success`, and reports the receiver's answer. It is queued like any delivery and shares the config's limit of 4 attempts in flight: if those slots stay busy for 2 s it is not sent (`delivered: false`, `error` says so). Not recorded in the delivery log; never disables the config. Rate-limited per partner (10 a minute by default). Send no body (or `{}`).",
      pathParams: ConfigIdParams,
      responses: {
        200: {
          description: "What the receiver answered.",
          schema: WebhookTestResult,
          examples: { delivered: WEBHOOK_TEST_EXAMPLE },
        },
      },
      errors: [
        CONFIG_NOT_FOUND,
        ["WEBHOOK_CONFIG_INACTIVE", "the config is inactive: reactivate it first"],
        RATE_LIMITED("test notifications"),
      ],
    },
  },
);
export const {
  createWebhookConfig,
  listWebhookConfigs,
  updateWebhookConfig,
  deleteWebhookConfig,
  rotateWebhookSecret,
  testWebhookConfig,
} = operations;
export const WEBHOOK_OPERATIONS = Object.values(operations);
