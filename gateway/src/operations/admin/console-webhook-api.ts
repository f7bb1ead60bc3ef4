/**
 * The console's webhook routes across partners: deliveries and redelivery, configs and their switch,
 * receiver health, pause and resume.
 */
import { defineOperations, ok } from "../../api/operation.js";
import { ClosedObject, component, Nullable, type Static, StringEnum, Type } from "../../api/schema.js";
import {
  CONSOLE_TAG,
  Count,
  Id,
  IdParam,
  ListPage,
  NextCursor,
  PAGE_CASES,
  Paging,
  Query,
} from "./console-query-shapes.js";
import { WebhookDelivery } from "./console-transaction-api.js";

export const DeliverySearchQuery = Query({
  status: Type.Optional(StringEnum(["pending", "delivering", "delivered", "dead"])),
  event_type: Type.Optional(
    StringEnum([
      "transaction.success",
      "transaction.refunded",
      "transaction.failed",
      "statement.closed",
      "batch.completed",
    ]),
  ),
  partner_id: Type.Optional(Id("One partner's deliveries.", "ptr_01m7xx9726hzfmmn1fcz6t8605")),
  tx_id: Type.Optional(Id("One transaction's deliveries.", "tx_01m7xx9726hzfmmn1fcz6t8605")),
  config_id: Type.Optional(Id("One receiver's deliveries.", "whc_01m7xx9726hzfmmn1fcz6t8605")),
  ...Paging(50),
});

export const DeliveryPage = ListPage("DeliveryPage", "deliveries", WebhookDelivery);

export const DeliveryParams = Type.Object({
  delivery_id: IdParam("delivery", "whd_01m7xx9726hzfmmn1fcz6t8605"),
});
export const ConfigParams = Type.Object({
  config_id: IdParam("receiver", "whc_01m7xx9726hzfmmn1fcz6t8605"),
});

export const AdminWebhookConfig = ClosedObject("AdminWebhookConfig", {
  config_id: Type.String(),
  partner_id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: Nullable.Text("Why it is off (an operator's reason, or 410 Gone)."),
  has_secret: Type.Boolean({
    description: "Whether notifications are signed; the secret is never shown.",
  }),
  basic_auth: Nullable(
    Type.Object({ username: Type.String() }, { additionalProperties: false }),
    "The user name only; the password is never shown.",
  ),
  previous_secret_expires_at: Nullable.Timestamp("While a rotated-out secret still signs."),
  pending_deliveries: Count("Deliveries waiting."),
  dead_deliveries: Count("Deliveries given up."),
  created_at: Nullable.Timestamp("Created."),
  updated_at: Nullable.Timestamp("Last change."),
});
export type AdminWebhookConfig = Static<typeof AdminWebhookConfig>;

export const ConfigSearchQuery = Query({
  partner_id: Type.Optional(Id("One partner's receivers.", "ptr_01m7xx9726hzfmmn1fcz6t8605")),
  enabled: Type.Optional(Type.Boolean({ description: "Only enabled (true) or disabled (false) ones." })),
  ...Paging(50),
});

export const ConfigPage = ListPage("AdminWebhookConfigPage", "webhook_configs", AdminWebhookConfig);

export const ConfigSwitch = component(
  "WebhookConfigSwitch",
  Type.Object({
    enabled: Type.Boolean({ description: "false: no new deliveries, pending ones wait; true: they go out." }),
    reason: Type.Optional(
      Type.String({
        maxLength: 500,
        description: "Why it is disabled; shown to the partner as `disabled_reason`.",
      }),
    ),
  }),
);

export const ReceiverHealthQuery = Query({
  partner_id: Type.Optional(Id("One partner's receivers.", "ptr_01m7xx9726hzfmmn1fcz6t8605")),
  with_backlog: Type.Optional(Type.Boolean({ description: "Only receivers with pending deliveries." })),
  circuit_open: Type.Optional(
    Type.Boolean({ description: "Only receivers whose circuit is open or half-open." }),
  ),
  ...Paging(50),
});

export const ReceiverHealth = ClosedObject("WebhookReceiverHealth", {
  config_id: Type.String(),
  partner_id: Type.String(),
  url: Type.String(),
  enabled: Type.Boolean({ description: "false: disabled (by the partner, an operator or a 410)." }),
  paused: Type.Boolean({ description: "Paused by an operator: nothing is attempted until resumed." }),
  circuit_state: StringEnum(["closed", "open", "half_open"]),
  circuit_failures: Count("Consecutive failed attempts since the last success."),
  circuit_opened_at: Nullable.Timestamp("When the circuit last opened; null while closed."),
  circuit_retry_at: Nullable.Timestamp("When an open circuit may next be probed; null while closed."),
  pending: Count("Deliveries waiting for an attempt (the backlog)."),
  oldest_pending_age_seconds: Count("Age of the oldest of them (0 when none)."),
  delivering: Count("Attempts in flight."),
});
export type ReceiverHealth = Static<typeof ReceiverHealth>;

export const ReceiverHealthPage = ClosedObject("WebhookReceiverHealthPage", {
  as_of: Nullable.Timestamp("When the figures were read."),
  receivers: Type.Array(ReceiverHealth),
  next_cursor: NextCursor,
});

const operations = defineOperations(
  { tags: CONSOLE_TAG },
  {
    searchWebhookDeliveries: {
      route: "GET /admin/webhook-deliveries",
      role: "viewer",
      summary: "Webhook deliveries across partners",
      description: "Newest first, each with every attempt; test notifications are not listed.",
      query: DeliverySearchQuery,
      responses: ok("A page.", DeliveryPage),
      errors: PAGE_CASES,
    },
    redeliverWebhookDelivery: {
      route: "POST /admin/webhook-deliveries/{delivery_id}/redeliver",
      role: "operator",
      summary: "Redeliver a webhook delivery",
      description:
        "Due now again, with the same event id and body. The partner's per-minute redelivery allowance is not charged; the per-receiver cap and per-transaction order still apply.",
      pathParams: DeliveryParams,
      responses: ok("The delivery, pending.", WebhookDelivery),
      errors: [
        ["DELIVERY_NOT_FOUND", "no such delivery"],
        ["DELIVERY_IN_PROGRESS", "an attempt is in flight; try again shortly"],
        ["WEBHOOK_CONFIG_INACTIVE", "its receiver is disabled: enable it first"],
      ],
    },
    searchWebhookConfigs: {
      route: "GET /admin/webhook-configs",
      role: "viewer",
      summary: "Webhook receivers across partners",
      description: "Oldest first, with their pending and dead delivery counts; never a secret.",
      query: ConfigSearchQuery,
      responses: ok("A page.", ConfigPage),
      errors: PAGE_CASES,
    },
    switchWebhookConfig: {
      route: "PATCH /admin/webhook-configs/{config_id}",
      role: "operator",
      summary: "Disable or enable a webhook receiver",
      description:
        "A disabled receiver gets no new deliveries and its pending ones wait (never attempted, never dead) until it is enabled again; then they go out in order.",
      pathParams: ConfigParams,
      body: ConfigSwitch,
      responses: ok("The receiver.", AdminWebhookConfig),
      errors: [["WEBHOOK_CONFIG_NOT_FOUND", "no such receiver"]],
    },
    listWebhookReceiverHealth: {
      route: "GET /admin/webhook-receivers",
      role: "viewer",
      summary: "Webhook receivers' health",
      description:
        "Every receiver, oldest first, with its circuit breaker, operator pause, backlog, oldest pending age and attempts in flight. Both filters given: both must hold.",
      query: ReceiverHealthQuery,
      responses: ok("A page.", ReceiverHealthPage),
      errors: PAGE_CASES,
    },
    pauseWebhookReceiver: {
      route: "POST /admin/webhook-receivers/{config_id}/pause",
      role: "operator",
      summary: "Pause a webhook receiver",
      description:
        "Nothing is attempted to it until it is resumed: its deliveries stay pending (no attempt used, never dead) and new events still queue for it. Pausing a paused receiver changes nothing.",
      pathParams: ConfigParams,
      responses: ok("The receiver's health.", ReceiverHealth),
      errors: [["WEBHOOK_CONFIG_NOT_FOUND", "no such receiver"]],
    },
    resumeWebhookReceiver: {
      route: "POST /admin/webhook-receivers/{config_id}/resume",
      role: "operator",
      summary: "Resume a paused webhook receiver",
      description:
        "Its pending deliveries are due again at once, in order. The circuit breaker is not reset: an open circuit still waits for its next probe.",
      pathParams: ConfigParams,
      responses: ok("The receiver's health.", ReceiverHealth),
      errors: [["WEBHOOK_CONFIG_NOT_FOUND", "no such receiver"]],
    },
  },
);
export const {
  searchWebhookDeliveries: searchDeliveries,
  redeliverWebhookDelivery: redeliverDelivery,
  searchWebhookConfigs: searchConfigs,
  switchWebhookConfig: switchConfig,
  listWebhookReceiverHealth: listReceiverHealth,
  pauseWebhookReceiver: pauseReceiver,
  resumeWebhookReceiver: resumeReceiver,
} = operations;
export const CONSOLE_WEBHOOK_OPERATIONS = Object.values(operations);
