/**
 * The console's transaction search across partners and one transaction's page (quote, status history,
 * ledger movements, deliveries).
 */
import { defineOperations, ok } from "../../api/operation.js";
import {
  anyCase,
  ClosedObject,
  DecimalString,
  Nullable,
  QueryDate,
  type Static,
  StringEnum,
  Type,
} from "../../api/schema.js";
import {
  CONSOLE_TAG,
  Count,
  Id,
  ListPage,
  PAGE_CASES,
  Paging,
  QUERY_CASE,
  Query,
} from "./console-query-shapes.js";
import { TRANSACTION_STATUSES, TxParams } from "./ledger-admin-api.js";

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
  ...Paging(20),
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
  created_at: Nullable.Timestamp("Created."),
  updated_at: Nullable.Timestamp("Last change."),
};

export const TransactionSummary = ClosedObject("TransactionSummary", SUMMARY_FIELDS);
export type TransactionSummary = Static<typeof TransactionSummary>;

export const TransactionSearchPage = ListPage("TransactionSearchPage", "transactions", TransactionSummary);

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
    expires_at: Nullable.Timestamp("The quote's end."),
  },
  { additionalProperties: false },
);

const StatusChange = Type.Object(
  {
    from: Nullable(StringEnum([...TRANSACTION_STATUSES, "UNSPECIFIED"]), "Null for the creation."),
    to: StringEnum([...TRANSACTION_STATUSES, "UNSPECIFIED"]),
    reason: Type.String(),
    at: Nullable.Timestamp("When."),
  },
  { additionalProperties: false },
);

const LedgerMovement = Type.Object(
  {
    movement_id: Type.String(),
    kind: StringEnum(["credit", "payout", "settlement", "reversal", "refund"]),
    reference: Type.String(),
    created_at: Nullable.Timestamp("Booked."),
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

export const WebhookDelivery = ClosedObject("WebhookDelivery", {
  delivery_id: Type.String(),
  partner_id: Type.String(),
  config_id: Type.String(),
  event_id: Type.String(),
  event_type: Type.String(),
  tx_id: Type.String(),
  status: StringEnum(["pending", "delivering", "delivered", "dead"]),
  attempt_count: Count("Attempts made, manual redeliveries included."),
  next_attempt_at: Nullable.Timestamp("The next attempt, while pending."),
  delivered_at: Nullable.Timestamp("When a receiver answered 2xx."),
  last_status_code: Nullable(Type.Integer(), "The last HTTP status received."),
  last_error: Nullable.Text(),
  response_body: Nullable.Text("The receiver's last answer, at most 20 KB."),
  created_at: Nullable.Timestamp("Queued."),
  attempts: Type.Array(
    Type.Object(
      {
        attempt: Type.Integer({ minimum: 1 }),
        status_code: Nullable(Type.Integer(), "Null when no HTTP answer arrived (see `error`)."),
        duration_ms: Count("How long the attempt took."),
        error: Nullable.Text(),
        attempted_at: Nullable.Timestamp("When it started."),
      },
      { additionalProperties: false },
    ),
  ),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const TransactionDetail = ClosedObject("TransactionDetail", {
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
});
export type TransactionDetail = Static<typeof TransactionDetail>;

const operations = defineOperations(
  { tags: CONSOLE_TAG, role: "viewer" },
  {
    searchTransactions: {
      route: "GET /admin/transactions",
      summary: "Search transactions across partners",
      description: "Newest first by (created_at, tx_id); every filter is optional and they combine.",
      query: TransactionSearchQuery,
      responses: ok("A page.", TransactionSearchPage),
      errors: [...PAGE_CASES, ["INVALID_FIELD", "`created_from` is after `created_to`"]],
    },
    getTransactionDetail: {
      route: "GET /admin/transactions/{tx_id}",
      summary: "A transaction's page",
      description:
        "The destination with account numbers masked, the quote, the ledger movements, the status timeline and every webhook delivery with each attempt's status code and timing.",
      pathParams: TxParams,
      responses: ok("The transaction.", TransactionDetail),
      errors: [QUERY_CASE, ["TRANSACTION_NOT_FOUND", "no such transaction"]],
    },
  },
);
export const { searchTransactions, getTransactionDetail } = operations;
export const CONSOLE_TRANSACTION_OPERATIONS = Object.values(operations);
