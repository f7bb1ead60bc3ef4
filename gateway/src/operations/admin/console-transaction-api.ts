/**
 * Shapes and operations of the operator console's routes (`console-*-routes.ts`, issue 15): the overview,
 * the transaction search and page, webhook deliveries and configs across partners, the partner list, apps,
 * an app's preview rate limit and the balance history. Query parameters are read from these shapes
 * (`http/read-query.ts`); they are closed (`additionalProperties: false`): a parameter a route's shape does
 * not list is refused, and so is an empty value, so neither a typo nor `partner_id=` is an unfiltered list.
 */
import type { TProperties } from "typebox";
import { defineOperation } from "../../api/operation.js";
import {
  anyCase,
  component,
  DecimalString,
  Nullable,
  QueryDate,
  type Static,
  StringEnum,
  Timestamp,
  Type,
} from "../../api/schema.js";
import type { ErrorCase } from "../../openapi/openapi-errors.js";
import { TRANSACTION_STATUSES, TxParams } from "./ledger-admin-api.js";
import { PartnerIdParams } from "./partner-admin-api.js";

/** Ids as the platform makes them (`tx_…`, `ptr_…`, `whd_…`). */
export const ID_PATTERN = "^[A-Za-z0-9_-]{1,100}$";
const Id = (description: string, example: string) =>
  Type.String({ pattern: ID_PATTERN, description, examples: [example] });
const Limit = (fallback: number) =>
  Type.Integer({
    minimum: 1,
    maximum: 100,
    default: fallback,
    description: `Page size, 1–100; ${fallback} when left out.`,
  });
/** A query shape of this API: closed, so an unknown parameter is refused. */
const Query = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: false });
const Cursor = Type.String({
  maxLength: 500,
  description: "The `next_cursor` of the previous page; opaque.",
});
const NextCursor = Nullable(Type.String(), "Pass as `cursor` for the next page; null on the last page.");
const Count = (description: string) => Type.Integer({ minimum: 0, description });

const QUERY_CASE: ErrorCase = [
  "INVALID_FIELD",
  "a query parameter is unknown to this route, repeated, or not well formed (`field` names it)",
];
const CURSOR_CASE: ErrorCase = [
  "INVALID_FIELD",
  "`cursor` is not one this list returned, or `limit` is not 1–100",
];
const PARTNER_NOT_FOUND: ErrorCase = ["PARTNER_NOT_FOUND", "no such partner"];
const TAG = ["Console"];

// ---- overview ------------------------------------------------------------------------------------------

export const PayoutCount = component(
  "PayoutCount",
  Type.Object(
    {
      country: Type.String({ description: "ISO 3166 alpha-2 of the corridor." }),
      currency: Type.String({ description: "ISO 4217 of the corridor." }),
      status: StringEnum(TRANSACTION_STATUSES),
      count: Count("Transactions created in the window with this corridor and status."),
      amount: DecimalString("Sum of their local amounts (0 when none is known yet)."),
      debited_usd: DecimalString("Sum of what executed payouts debited, USD."),
    },
    { additionalProperties: false },
  ),
);

const PayoutWindow = Type.Object(
  {
    since: Nullable(Timestamp("Transactions created at or after this instant are counted.")),
    total: Count("Transactions created in the window."),
    by_corridor: Type.Array(PayoutCount),
  },
  { additionalProperties: false },
);

export const Overview = component(
  "Overview",
  Type.Object(
    {
      as_of: Nullable(Timestamp("When the figures were read.")),
      payouts: Type.Object(
        { last_hour: PayoutWindow, last_day: PayoutWindow },
        { additionalProperties: false, description: "Transactions by corridor and status, every status." },
      ),
      balances: Type.Object(
        {
          total_usd: DecimalString("Sum of every partner's spendable balance."),
          in_flight_usd: DecimalString("Debited for payouts the rail has not settled yet."),
          partners: Count("Partners holding a ledger account."),
        },
        { additionalProperties: false },
      ),
      outbox: Type.Object(
        {
          unpublished: Count("Ledger events not yet published to the event bus."),
          oldest_age_ms: Count("Age of the oldest of them (0 when none)."),
        },
        { additionalProperties: false },
      ),
      webhooks: Type.Object(
        {
          pending: Count("Waiting for an attempt (first or retry), disabled configs' included."),
          retrying: Count("Pending after at least one failed attempt."),
          delivering: Count("An attempt in flight."),
          dead: Count("Given up after the last retry: redeliver by hand."),
          delivered_last_hour: Count("Delivered in the last hour."),
          delivered_last_day: Count("Delivered in the last day."),
          pending_disabled: Count("Pending deliveries of disabled configs: they wait for it."),
          oldest_due_age_ms: Count("How late the oldest due delivery of an enabled config is (0 when none)."),
        },
        { additionalProperties: false, description: "Deliveries by outcome." },
      ),
    },
    { additionalProperties: false },
  ),
);
export type Overview = Static<typeof Overview>;

export const getOverview = defineOperation({
  method: "GET",
  path: "/admin/overview",
  operationId: "getOverview",
  summary: "Operations overview",
  description:
    "Payouts of the last hour and day by corridor and status, partner balances, the outbox backlog and webhook deliveries by outcome. Cheap aggregates over indexes: poll it.",
  tags: TAG,
  responses: { 200: { description: "The figures.", schema: Overview } },
  errors: [QUERY_CASE],
});

// ---- transactions --------------------------------------------------------------------------------------

export const TransactionSearchQuery = Query({
  tx_id: Type.Optional(Id("One transaction.", "tx_01m7xx9726hzfmmn1fcz6t8605")),
  partner_transaction_id: Type.Optional(
    Type.String({ maxLength: 255, description: "The partner's reference." }),
  ),
  partner_id: Type.Optional(Id("One partner's transactions.", "ptr_01m7xx9726hzfmmn1fcz6t8605")),
  status: Type.Optional(
    anyCase(StringEnum(TRANSACTION_STATUSES, { description: "A status; case-insensitive." })),
  ),
  country: Type.Optional(
    anyCase(
      Type.String({
        pattern: "^[A-Za-z]{2}$",
        description: "Corridor country, ISO 3166 alpha-2.",
        examples: ["BR"],
      }),
    ),
  ),
  currency: Type.Optional(
    anyCase(
      Type.String({
        pattern: "^[A-Za-z]{3}$",
        description: "Corridor currency, ISO 4217.",
        examples: ["BRL"],
      }),
    ),
  ),
  created_from: Type.Optional(QueryDate("Created at or after (RFC 3339, or a date = midnight UTC).")),
  created_to: Type.Optional(QueryDate("Created at or before; not before `created_from`.")),
  limit: Type.Optional(Limit(20)),
  cursor: Type.Optional(Cursor),
});

const SUMMARY_FIELDS = {
  tx_id: Type.String(),
  partner_id: Type.String(),
  partner_transaction_id: Type.String(),
  status: StringEnum([...TRANSACTION_STATUSES, "UNSPECIFIED"]),
  country: Type.String(),
  currency: Type.String(),
  amount: Nullable(DecimalString("Local currency, full precision."), "Null until known."),
  amount_usd: Nullable(DecimalString("USD, full precision."), "Null before a quote."),
  fee: Nullable(DecimalString("USD, full precision."), "Null before a quote."),
  total_usd: Nullable(DecimalString("What the balance is debited."), "Null before a quote."),
  payment_method: Type.String(),
  destination_type: Type.String(),
  created_at: Nullable(Timestamp("Created.")),
  updated_at: Nullable(Timestamp("Last change.")),
};

export const TransactionSummary = component(
  "TransactionSummary",
  Type.Object(SUMMARY_FIELDS, { additionalProperties: false }),
);
export type TransactionSummary = Static<typeof TransactionSummary>;

export const TransactionSearchPage = component(
  "TransactionSearchPage",
  Type.Object(
    { transactions: Type.Array(TransactionSummary), next_cursor: NextCursor },
    { additionalProperties: false },
  ),
);

const MaskedDestination = Type.Object(
  {
    country: Type.String(),
    currency: Type.String(),
    payment_method: Type.String(),
    destination_type: Type.String(),
    payment_destination: Type.String({ description: "Masked to its last four characters." }),
    payment_destination_code: Type.String(),
    institution_name: Type.String(),
    account_type: Type.String(),
    account_reference: Type.String({ description: "Masked to its last four characters." }),
    is_business: Type.Boolean(),
    merchant_name: Type.String(),
    source: Type.String({ description: "`lookup` or `decode_qr`." }),
    recipient: Nullable(
      Type.Object(
        {},
        { additionalProperties: true, description: "As lookup named it; `account_no` masked." },
      ),
    ),
    sender: Nullable(
      Type.Object(
        {
          name_first: Type.Optional(Type.String()),
          name_last: Type.Optional(Type.String()),
          country: Type.Optional(Type.String()),
        },
        { additionalProperties: false, description: "Name and country only." },
      ),
    ),
  },
  { additionalProperties: false },
);

const Quote = Type.Object(
  {
    quote_id: Type.String(),
    amount: DecimalString("Local currency."),
    currency: Type.String(),
    exchange_rate: DecimalString("Units of the currency per USD."),
    amount_usd: DecimalString("USD."),
    percentage_fee: DecimalString("USD."),
    fixed_fee: DecimalString("USD."),
    fee: DecimalString("USD."),
    total_usd: DecimalString("USD."),
    expires_at: Nullable(Timestamp("The quote's end.")),
  },
  { additionalProperties: false },
);

const StatusChange = Type.Object(
  {
    from: Nullable(StringEnum([...TRANSACTION_STATUSES, "UNSPECIFIED"]), "Null for the creation."),
    to: StringEnum([...TRANSACTION_STATUSES, "UNSPECIFIED"]),
    reason: Type.String(),
    at: Nullable(Timestamp("When.")),
  },
  { additionalProperties: false },
);

const LedgerMovement = Type.Object(
  {
    movement_id: Type.String(),
    kind: StringEnum(["credit", "payout", "settlement", "reversal", "refund"]),
    reference: Type.String(),
    created_at: Nullable(Timestamp("Booked.")),
    lines: Type.Array(
      Type.Object(
        {
          account: StringEnum(["balance", "in_flight", "settled", "fees", "funding"]),
          amount_usd: DecimalString("Signed: positive adds to the account."),
        },
        { additionalProperties: false },
      ),
      { description: "Double-entry lines; they sum to zero." },
    ),
  },
  { additionalProperties: false },
);

export const WebhookDelivery = component(
  "WebhookDelivery",
  Type.Object(
    {
      delivery_id: Type.String(),
      partner_id: Type.String(),
      config_id: Type.String(),
      event_id: Type.String(),
      event_type: Type.String(),
      tx_id: Type.String(),
      status: StringEnum(["pending", "delivering", "delivered", "dead"]),
      attempt_count: Count("Attempts made, manual redeliveries included."),
      next_attempt_at: Nullable(Timestamp("The next attempt, while pending.")),
      delivered_at: Nullable(Timestamp("When a receiver answered 2xx.")),
      last_status_code: Nullable(Type.Integer(), "The last HTTP status received."),
      last_error: Nullable(Type.String()),
      response_body: Nullable(Type.String(), "The receiver's last answer, at most 20 KB."),
      created_at: Nullable(Timestamp("Queued.")),
      attempts: Type.Array(
        Type.Object(
          {
            attempt: Type.Integer({ minimum: 1 }),
            status_code: Nullable(Type.Integer(), "Null when no HTTP answer arrived (see `error`)."),
            duration_ms: Count("How long the attempt took."),
            error: Nullable(Type.String()),
            attempted_at: Nullable(Timestamp("When it started.")),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const TransactionDetail = component(
  "TransactionDetail",
  Type.Object(
    {
      ...SUMMARY_FIELDS,
      customer_id: Type.String(),
      client_id: Type.String({ description: "The app that created it." }),
      destination: Nullable(MaskedDestination),
      quote: Nullable(Quote, "Null before getQuotation."),
      provider_reference: Type.String(),
      refund_reason: Type.String(),
      failure_reason: Type.String(),
      status_history: Type.Array(StatusChange, { description: "The timeline, oldest first." }),
      ledger_movements: Type.Array(LedgerMovement, { description: "Oldest first." }),
      webhook_deliveries: Type.Array(WebhookDelivery, {
        description: "Newest first, each with every attempt.",
      }),
    },
    { additionalProperties: false },
  ),
);
export type TransactionDetail = Static<typeof TransactionDetail>;

export const searchTransactions = defineOperation({
  method: "GET",
  path: "/admin/transactions",
  operationId: "searchTransactions",
  summary: "Search transactions across partners",
  description: "Newest first by (created_at, tx_id); every filter is optional and they combine.",
  tags: TAG,
  query: TransactionSearchQuery,
  responses: { 200: { description: "A page.", schema: TransactionSearchPage } },
  errors: [QUERY_CASE, CURSOR_CASE, ["INVALID_FIELD", "`created_from` is after `created_to`"]],
});

export const getTransactionDetail = defineOperation({
  method: "GET",
  path: "/admin/transactions/{tx_id}",
  operationId: "getTransactionDetail",
  summary: "A transaction's page",
  description:
    "The destination with account numbers masked, the quote, the ledger movements, the status timeline and every webhook delivery with each attempt's status code and timing.",
  tags: TAG,
  pathParams: TxParams,
  responses: { 200: { description: "The transaction.", schema: TransactionDetail } },
  errors: [QUERY_CASE, ["TRANSACTION_NOT_FOUND", "no such transaction"]],
});

// ---- webhooks ------------------------------------------------------------------------------------------

export const DeliverySearchQuery = Query({
  status: Type.Optional(StringEnum(["pending", "delivering", "delivered", "dead"])),
  event_type: Type.Optional(
    StringEnum(["transaction.success", "transaction.refunded", "transaction.failed"]),
  ),
  partner_id: Type.Optional(Id("One partner's deliveries.", "ptr_01m7xx9726hzfmmn1fcz6t8605")),
  tx_id: Type.Optional(Id("One transaction's deliveries.", "tx_01m7xx9726hzfmmn1fcz6t8605")),
  config_id: Type.Optional(Id("One receiver's deliveries.", "whc_01m7xx9726hzfmmn1fcz6t8605")),
  limit: Type.Optional(Limit(50)),
  cursor: Type.Optional(Cursor),
});

export const DeliveryPage = component(
  "DeliveryPage",
  Type.Object(
    { deliveries: Type.Array(WebhookDelivery), next_cursor: NextCursor },
    { additionalProperties: false },
  ),
);

export const DeliveryParams = Type.Object({
  delivery_id: Type.String({
    description: "The delivery (`whd_…`).",
    examples: ["whd_01m7xx9726hzfmmn1fcz6t8605"],
  }),
});
export const ConfigParams = Type.Object({
  config_id: Type.String({
    description: "The receiver (`whc_…`).",
    examples: ["whc_01m7xx9726hzfmmn1fcz6t8605"],
  }),
});

export const AdminWebhookConfig = component(
  "AdminWebhookConfig",
  Type.Object(
    {
      config_id: Type.String(),
      partner_id: Type.String(),
      url: Type.String(),
      events: Type.Array(Type.String()),
      enabled: Type.Boolean(),
      disabled_reason: Nullable(Type.String(), "Why it is off (an operator's reason, or 410 Gone)."),
      has_secret: Type.Boolean({
        description: "Whether notifications are signed; the secret is never shown.",
      }),
      basic_auth: Nullable(
        Type.Object({ username: Type.String() }, { additionalProperties: false }),
        "The user name only; the password is never shown.",
      ),
      previous_secret_expires_at: Nullable(Timestamp("While a rotated-out secret still signs.")),
      pending_deliveries: Count("Deliveries waiting."),
      dead_deliveries: Count("Deliveries given up."),
      created_at: Nullable(Timestamp("Created.")),
      updated_at: Nullable(Timestamp("Last change.")),
    },
    { additionalProperties: false },
  ),
);
export type AdminWebhookConfig = Static<typeof AdminWebhookConfig>;

export const ConfigSearchQuery = Query({
  partner_id: Type.Optional(Id("One partner's receivers.", "ptr_01m7xx9726hzfmmn1fcz6t8605")),
  enabled: Type.Optional(Type.Boolean({ description: "Only enabled (true) or disabled (false) ones." })),
  limit: Type.Optional(Limit(50)),
  cursor: Type.Optional(Cursor),
});

export const ConfigPage = component(
  "AdminWebhookConfigPage",
  Type.Object(
    { webhook_configs: Type.Array(AdminWebhookConfig), next_cursor: NextCursor },
    { additionalProperties: false },
  ),
);

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

export const searchDeliveries = defineOperation({
  method: "GET",
  path: "/admin/webhook-deliveries",
  operationId: "searchWebhookDeliveries",
  summary: "Webhook deliveries across partners",
  description: "Newest first, each with every attempt; test notifications are not listed.",
  tags: TAG,
  query: DeliverySearchQuery,
  responses: { 200: { description: "A page.", schema: DeliveryPage } },
  errors: [QUERY_CASE, CURSOR_CASE],
});

export const redeliverDelivery = defineOperation({
  method: "POST",
  path: "/admin/webhook-deliveries/{delivery_id}/redeliver",
  operationId: "redeliverWebhookDelivery",
  summary: "Redeliver a webhook delivery",
  description:
    "Due now again, with the same event id and body. The partner's per-minute redelivery allowance is not charged; the per-receiver cap and per-transaction order still apply.",
  tags: TAG,
  pathParams: DeliveryParams,
  responses: { 200: { description: "The delivery, pending.", schema: WebhookDelivery } },
  errors: [
    ["DELIVERY_NOT_FOUND", "no such delivery"],
    ["DELIVERY_IN_PROGRESS", "an attempt is in flight; try again shortly"],
    ["WEBHOOK_CONFIG_INACTIVE", "its receiver is disabled: enable it first"],
  ],
});

export const searchConfigs = defineOperation({
  method: "GET",
  path: "/admin/webhook-configs",
  operationId: "searchWebhookConfigs",
  summary: "Webhook receivers across partners",
  description: "Oldest first, with their pending and dead delivery counts; never a secret.",
  tags: TAG,
  query: ConfigSearchQuery,
  responses: { 200: { description: "A page.", schema: ConfigPage } },
  errors: [QUERY_CASE, CURSOR_CASE],
});

export const switchConfig = defineOperation({
  method: "PATCH",
  path: "/admin/webhook-configs/{config_id}",
  operationId: "switchWebhookConfig",
  summary: "Disable or enable a webhook receiver",
  description:
    "A disabled receiver gets no new deliveries and its pending ones wait (never attempted, never dead) until it is enabled again; then they go out in order.",
  tags: TAG,
  pathParams: ConfigParams,
  body: ConfigSwitch,
  responses: { 200: { description: "The receiver.", schema: AdminWebhookConfig } },
  errors: [["WEBHOOK_CONFIG_NOT_FOUND", "no such receiver"]],
});

export const ReceiverHealthQuery = Query({
  partner_id: Type.Optional(Id("One partner's receivers.", "ptr_01m7xx9726hzfmmn1fcz6t8605")),
  with_backlog: Type.Optional(Type.Boolean({ description: "Only receivers with pending deliveries." })),
  circuit_open: Type.Optional(
    Type.Boolean({ description: "Only receivers whose circuit is open or half-open." }),
  ),
  limit: Type.Optional(Limit(50)),
  cursor: Type.Optional(Cursor),
});

export const ReceiverHealth = component(
  "WebhookReceiverHealth",
  Type.Object(
    {
      config_id: Type.String(),
      partner_id: Type.String(),
      url: Type.String(),
      enabled: Type.Boolean({ description: "false: disabled (by the partner, an operator or a 410)." }),
      paused: Type.Boolean({ description: "Paused by an operator: nothing is attempted until resumed." }),
      circuit_state: StringEnum(["closed", "open", "half_open"]),
      circuit_failures: Count("Consecutive failed attempts since the last success."),
      circuit_opened_at: Nullable(Timestamp("When the circuit last opened; null while closed.")),
      circuit_retry_at: Nullable(Timestamp("When an open circuit may next be probed; null while closed.")),
      pending: Count("Deliveries waiting for an attempt (the backlog)."),
      oldest_pending_age_seconds: Count("Age of the oldest of them (0 when none)."),
      delivering: Count("Attempts in flight."),
    },
    { additionalProperties: false },
  ),
);
export type ReceiverHealth = Static<typeof ReceiverHealth>;

export const ReceiverHealthPage = component(
  "WebhookReceiverHealthPage",
  Type.Object(
    {
      as_of: Nullable(Timestamp("When the figures were read.")),
      receivers: Type.Array(ReceiverHealth),
      next_cursor: NextCursor,
    },
    { additionalProperties: false },
  ),
);

export const listReceiverHealth = defineOperation({
  method: "GET",
  path: "/admin/webhook-receivers",
  operationId: "listWebhookReceiverHealth",
  summary: "Webhook receivers' health",
  description:
    "Every receiver, oldest first, with its circuit breaker, operator pause, backlog, oldest pending age and attempts in flight. Both filters given: both must hold.",
  tags: TAG,
  query: ReceiverHealthQuery,
  responses: { 200: { description: "A page.", schema: ReceiverHealthPage } },
  errors: [QUERY_CASE, CURSOR_CASE],
});

export const pauseReceiver = defineOperation({
  method: "POST",
  path: "/admin/webhook-receivers/{config_id}/pause",
  operationId: "pauseWebhookReceiver",
  summary: "Pause a webhook receiver",
  description:
    "Nothing is attempted to it until it is resumed: its deliveries stay pending (no attempt used, never dead) and new events still queue for it. Pausing a paused receiver changes nothing.",
  tags: TAG,
  pathParams: ConfigParams,
  responses: { 200: { description: "The receiver's health.", schema: ReceiverHealth } },
  errors: [["WEBHOOK_CONFIG_NOT_FOUND", "no such receiver"]],
});

export const resumeReceiver = defineOperation({
  method: "POST",
  path: "/admin/webhook-receivers/{config_id}/resume",
  operationId: "resumeWebhookReceiver",
  summary: "Resume a paused webhook receiver",
  description:
    "Its pending deliveries are due again at once, in order. The circuit breaker is not reset: an open circuit still waits for its next probe.",
  tags: TAG,
  pathParams: ConfigParams,
  responses: { 200: { description: "The receiver's health.", schema: ReceiverHealth } },
  errors: [["WEBHOOK_CONFIG_NOT_FOUND", "no such receiver"]],
});

// ---- partners ------------------------------------------------------------------------------------------

/** The partner list's page size when `limit` is left out (the gateway pages it itself). */
export const PARTNER_PAGE = 20;

export const PartnerListQuery = Query({
  name: Type.Optional(Type.String({ maxLength: 200, description: "Part of the name, any case." })),
  limit: Type.Optional(Limit(PARTNER_PAGE)),
  cursor: Type.Optional(Cursor),
});

export const PartnerListItem = component(
  "PartnerListItem",
  Type.Object(
    {
      partner_id: Type.String(),
      name: Type.String(),
      active_apps: Count("Apps not revoked."),
      balance_usd: DecimalString("Spendable."),
      in_flight_usd: DecimalString("Debited, not yet settled."),
      created_at: Timestamp("Created."),
      updated_at: Timestamp("Last change."),
    },
    { additionalProperties: false },
  ),
);
export type PartnerListItem = Static<typeof PartnerListItem>;

export const PartnerPage = component(
  "PartnerPage",
  Type.Object(
    { partners: Type.Array(PartnerListItem), next_cursor: NextCursor },
    { additionalProperties: false },
  ),
);

const AppFields = {
  client_id: Type.String(),
  partner_id: Type.String(),
  preview_rate_limit_per_minute: Type.Integer({ minimum: 1 }),
  created_at: Timestamp("Created."),
  revoked_at: Nullable(Timestamp("Revoked.")),
};

export const AdminApp = component(
  "AdminApp",
  Type.Object(
    {
      ...AppFields,
      secrets: Type.Array(
        Type.Object(
          {
            secret_id: Type.String(),
            created_at: Timestamp("Created."),
            revoked_at: Nullable(Timestamp("Revoked.")),
          },
          { additionalProperties: false },
        ),
        { description: "Newest first; never a secret or its hash." },
      ),
    },
    { additionalProperties: false },
  ),
);
export type AdminApp = Static<typeof AdminApp>;

export const AppList = component(
  "AdminAppList",
  Type.Object({ apps: Type.Array(AdminApp) }, { additionalProperties: false }),
);

export const AppSettings = component("AppSettings", Type.Object(AppFields, { additionalProperties: false }));
export type AppSettings = Static<typeof AppSettings>;

export const RateLimitRequest = component(
  "RateLimitRequest",
  Type.Object({
    preview_rate_limit_per_minute: Type.Integer({
      minimum: 1,
      maximum: 1_000_000,
      description: "previewQuotations calls per minute for this app (per gateway replica).",
    }),
  }),
);

export const AppParams = Type.Object({
  partner_id: PartnerIdParams.properties.partner_id,
  client_id: Type.String({ description: "The app (`ci_…`).", examples: ["ci_01m7xx9726hzfmmn1fcz6t8605"] }),
});

export const BalanceEntriesQuery = Query({
  limit: Type.Optional(Limit(20)),
  cursor: Type.Optional(Cursor),
});

export const BalanceEntry = component(
  "BalanceEntry",
  Type.Object(
    {
      entry_id: Type.String(),
      kind: StringEnum(["credit", "payout", "reversal", "refund"]),
      tx_id: Nullable(Type.String(), "The payout; null for a credit."),
      reference: Nullable(Type.String(), "A credit's reference; the transition for the others."),
      amount_usd: DecimalString("Signed: positive credits the balance."),
      balance_after_usd: DecimalString("The balance right after this entry."),
      created_at: Nullable(Timestamp("Booked.")),
    },
    { additionalProperties: false },
  ),
);

export const BalanceHistory = component(
  "BalanceHistory",
  Type.Object(
    {
      partner_id: Type.String(),
      balance_usd: DecimalString("The balance now."),
      entries: Type.Array(BalanceEntry, { description: "Newest first." }),
      next_cursor: NextCursor,
    },
    { additionalProperties: false },
  ),
);
export type BalanceHistory = Static<typeof BalanceHistory>;

export const listPartners = defineOperation({
  method: "GET",
  path: "/admin/partners",
  operationId: "listPartners",
  summary: "Partners, with balances",
  description: "Newest first.",
  tags: TAG,
  query: PartnerListQuery,
  responses: { 200: { description: "A page.", schema: PartnerPage } },
  errors: [QUERY_CASE, CURSOR_CASE],
});

export const listApps = defineOperation({
  method: "GET",
  path: "/admin/partners/{partner_id}/apps",
  operationId: "listApps",
  summary: "A partner's apps and their secrets' ids",
  tags: TAG,
  pathParams: PartnerIdParams,
  responses: { 200: { description: "Newest first.", schema: AppList } },
  errors: [QUERY_CASE, PARTNER_NOT_FOUND],
});

export const setAppRateLimit = defineOperation({
  method: "PATCH",
  path: "/admin/partners/{partner_id}/apps/{client_id}",
  operationId: "setAppRateLimit",
  summary: "Set an app's previewQuotations limit",
  description: "At once on the gateway that answers; within `AUTH_CACHE_TTL_MS` on other replicas.",
  tags: TAG,
  pathParams: AppParams,
  body: RateLimitRequest,
  responses: { 200: { description: "The app.", schema: AppSettings } },
  errors: [
    ["APP_NOT_FOUND", "the partner has no such app"],
    ["APP_REVOKED", "the app is revoked", 409],
  ],
});

export const listBalanceEntries = defineOperation({
  method: "GET",
  path: "/admin/partners/{partner_id}/balance/entries",
  operationId: "listBalanceEntries",
  summary: "A partner's balance history",
  description:
    "Every credit, payout debit, reversal and refund of the spendable balance, newest first, each with the balance right after it.",
  tags: TAG,
  pathParams: PartnerIdParams,
  query: BalanceEntriesQuery,
  responses: { 200: { description: "A page.", schema: BalanceHistory } },
  errors: [QUERY_CASE, CURSOR_CASE, PARTNER_NOT_FOUND],
});

export const CONSOLE_OPERATIONS = [
  getOverview,
  searchTransactions,
  getTransactionDetail,
  searchDeliveries,
  redeliverDelivery,
  searchConfigs,
  switchConfig,
  listReceiverHealth,
  pauseReceiver,
  resumeReceiver,
  listPartners,
  listApps,
  setAppRateLimit,
  listBalanceEntries,
] as const;
