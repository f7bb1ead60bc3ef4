/**
 * Shapes and operations of pricing, execution and the transaction record (`pricing-routes.ts`,
 * `transaction-routes.ts`), and the transaction shapes other groups share (status, parties).
 */
import { PAYOUT_REFUSAL_ORDER, STORED_PAYOUT_REFUSALS } from "@payouts/ledger/payout-refusals";
import { TRANSACTION_STATUSES } from "@payouts/platform/transaction-status";
import { defineOperation } from "../api/operation.js";
import {
  anyCase,
  component,
  DecimalInput,
  ExchangeRate,
  FreeMap,
  LocalAmount,
  Nullable,
  QueryDate,
  type Static,
  StringEnum,
  Timestamp,
  Type,
  UsdAmount,
  withInvalidCode,
} from "../api/schema.js";
import { headerRef, parameterRef } from "../openapi/openapi-components.js";
import {
  AUTH_BUSY_CASE,
  AUTH_CASE,
  AUTH_THROTTLE_CASE,
  type ErrorCase,
  INTERNAL_CASE,
  JSON_BODY_CASES,
  UNAVAILABLE_CASE,
} from "../openapi/openapi-errors.js";
import {
  BALANCE_EXAMPLE,
  ERROR_EXAMPLES,
  PREVIEW_EXAMPLE,
  QUOTE_EXAMPLE,
  TRANSACTION_EXAMPLES,
  TRANSACTION_LIST_EXAMPLE,
} from "../openapi/openapi-examples.js";

export const MAX_PAGE_SIZE = 100;

export const TransactionStatus = component(
  "TransactionStatus",
  StringEnum(TRANSACTION_STATUSES, {
    description:
      "PENDING (created by lookup or decodeQr; quotes attach here) → PROCESSING (executePayout debited the balance and submitted the payout) → SUCCESS (the rail paid) → REFUNDED (operations refunded it; balance credited). PROCESSING → FAILED (the rail failed it; debit reversed). PENDING → EXPIRED (not executed in time).",
  }),
);
export type TransactionStatusName = Static<typeof TransactionStatus>;

export const SENDER_DESCRIPTION =
  "The sender, always derived from the registered customer (`customer_id`). Keys with a value among `name_first`, `name_last`, `country`, `ic_number`, `ic_type`, `phone`, `email`.";
export const RECIPIENT_DESCRIPTION =
  "The recipient as the destination and name enquiry establish it; keys with an empty value are left out. Keys seen: `account_no`, `bank_code`, `bank_no`, `bank_name`, `name`, `name_first`, `name_last`, `country` (businesses have `name` only).";
export const SenderMap = FreeMap(SENDER_DESCRIPTION);
export const RecipientMap = FreeMap(RECIPIENT_DESCRIPTION);

const PreviewQuotationsRequest = component(
  "PreviewQuotationsRequest",
  Type.Object(
    {
      amount: DecimalInput("Amount in `currency`; must be greater than 0.", { exclusiveMinimum: 0 }),
      currency: Type.String({ description: "ISO 4217 code, any case.", examples: ["USD", "kes"] }),
    },
    {
      description:
        "Checked in this order: `amount` (INVALID_AMOUNT), `currency` (MISSING_REQUIRED_FIELD), the amount's decimals against the currency's minor units (INVALID_AMOUNT), then credentials, rate limit and the rate of `currency` (INVALID_CURRENCY).",
    },
  ),
);

const QUOTE_FIELDS = {
  exchange_rate: ExchangeRate(),
  amount_usd: UsdAmount("The amount"),
  fee: UsdAmount("`percentage_fee + fixed_fee`"),
  percentage_fee: UsdAmount("Percentage part of the fee"),
  fixed_fee: UsdAmount("Fixed part of the fee"),
};

export const QuotationItem = component(
  "QuotationItem",
  Type.Object(
    {
      amount: LocalAmount("The previewed amount converted to `currency`,"),
      currency: Type.String({ description: "Target currency, one of the account's supported currencies." }),
      ...QUOTE_FIELDS,
      expires_at: Nullable(
        Type.String({
          format: "date-time",
          description: "Always 30 minutes after the response time. Indicative only: nothing is reserved.",
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
export type QuotationItem = Static<typeof QuotationItem>;

const PreviewQuotationsResponse = component(
  "PreviewQuotationsResponse",
  Type.Object(
    { quotations: Type.Array(QuotationItem) },
    {
      additionalProperties: false,
      description:
        "One quotation per supported currency of the account (only USD when none is configured), in the account's order. A currency without an FX rate, or whose converted amount is outside its corridor's limits, is left out; the list may be empty.",
    },
  ),
);

export const GetQuotationRequest = component(
  "GetQuotationRequest",
  Type.Object({
    tx_id: Type.String({
      maxLength: 100,
      description: "A PENDING transaction from `lookupPaymentCode` or `decodeQr`.",
    }),
    amount: withInvalidCode(
      "INVALID_AMOUNT",
      DecimalInput("Local-currency amount; must be greater than 0.", { exclusiveMinimum: 0 }),
    ),
    currency: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z]{3}$",
        description: "ISO 4217 code; when sent it must be the transaction's currency (any case).",
      }),
    ),
  }),
);

export const BindingQuote = component(
  "BindingQuote",
  Type.Object(
    {
      tx_id: Type.String({ description: "The transaction quoted." }),
      amount: LocalAmount("The payout amount"),
      currency: Type.String({ description: "The transaction's currency." }),
      ...QUOTE_FIELDS,
      total_usd: UsdAmount("`amount_usd + fee`, what executePayout debits"),
      expires_at: Nullable(
        Timestamp("After this the quote cannot be executed (`QUOTE_EXPIRED`): quote again."),
      ),
    },
    {
      additionalProperties: false,
      description:
        "A binding price, attached to the transaction (a newer quote replaces the older). `executePayout` debits `total_usd` at full precision.",
    },
  ),
);
export type BindingQuote = Static<typeof BindingQuote>;

export const Balance = component(
  "Balance",
  Type.Object(
    {
      balance_usd: UsdAmount("What the partner may spend"),
      currency: Type.Literal("USD", { description: "Always `USD`." }),
    },
    { additionalProperties: false },
  ),
);
export type Balance = Static<typeof Balance>;

export const ExecutePayoutRequest = component(
  "ExecutePayoutRequest",
  Type.Object({
    tx_id: Type.String({ maxLength: 100, description: "A PENDING transaction with an unexpired quote." }),
  }),
);

const StatusChange = component(
  "StatusChange",
  Type.Object(
    {
      from: Type.Unsafe<TransactionStatusName | null>({
        type: ["string", "null"],
        enum: [...TRANSACTION_STATUSES, null],
        description: "Previous status; null for the creation.",
      }),
      to: TransactionStatus,
      reason: Type.String({
        description:
          "Why, e.g. `created`, `executePayout`, `rail reported success`, the rail's failure reason.",
      }),
      at: Nullable(Timestamp("When.")),
    },
    { additionalProperties: false },
  ),
);
export type StatusChange = Static<typeof StatusChange>;

const optionalText = (description: string) => Type.Optional(Type.String({ description }));

export const QrDataShape = component(
  "QrData",
  Type.Object(
    {
      sender: Type.Optional(SenderMap),
      recipient: Type.Optional(RecipientMap),
      payment_method: optionalText("`payment_key`, `ewallet` or `bank_transfer`."),
      destination_type: optionalText(
        "Canonical kind of destination, e.g. `PIX_CPF`, `CBU`, `NUBAN`, `TILL`, `VN_ACCOUNT`.",
      ),
      payment_destination: optionalText("The destination in canonical form."),
      payment_destination_code: optionalText("Canonical rail or institution code."),
      institution_name: optionalText("Name of the institution or rail."),
      merchant: optionalText("Merchant name."),
      merchant_id: optionalText("Till, paybill or account number of the merchant contract."),
      merchant_name: optionalText("Verified merchant name."),
      payment_type: optionalText("`till` or `paybill`."),
    },
    {
      additionalProperties: false,
      description:
        "Who pays whom, as lookup or decodeQr established it; empty parts are left out. The seed's sender and recipient details live here.",
    },
  ),
);

export type QrData = Static<typeof QrDataShape>;

export const Transaction = component(
  "Transaction",
  Type.Object(
    {
      tx_id: Type.String({ description: "Identifier." }),
      status: TransactionStatus,
      country: Type.String({ description: "ISO alpha-2 of the destination." }),
      currency: Type.String({ description: "ISO 4217 of the corridor." }),
      amount: LocalAmount("The payout amount; 0 while none was given"),
      exchange_rate: Type.Optional(ExchangeRate("Only when quoted. ")),
      amount_usd: Type.Optional(UsdAmount("Only when quoted: the amount")),
      fee: Type.Optional(UsdAmount("Only when quoted: `percentage_fee + fixed_fee`")),
      percentage_fee: Type.Optional(UsdAmount("Only when quoted: the percentage part of the fee")),
      fixed_fee: Type.Optional(UsdAmount("Only when quoted: the fixed part of the fee")),
      partner_transaction_id: Type.String({ description: "Your reference; empty string when none." }),
      qr_data: QrDataShape,
      failure_reason: optionalText("Only on FAILED: why the rail failed it."),
      refund_reason: optionalText("Only on REFUNDED, when operations gave a reason."),
      created_at: Nullable(Timestamp("Creation time.")),
      updated_at: Nullable(Timestamp("Last status change.")),
      status_history: Type.Optional(
        Type.Array(StatusChange, { description: "Every status change, oldest first." }),
      ),
    },
    {
      additionalProperties: false,
      description:
        "A transaction. Pricing fields appear once a quote is attached. `status_history` appears on `GET /transactions/{tx_id}` and on executePayout answers, not in lists.",
    },
  ),
);
export type Transaction = Static<typeof Transaction>;

const TransactionList = component(
  "TransactionList",
  Type.Object(
    {
      transactions: Type.Array(Transaction, { description: "Newest first (by creation time, then tx_id)." }),
      next_cursor: Nullable(Type.String(), "Pass as `cursor` for the next page; null on the last page."),
    },
    { additionalProperties: false },
  ),
);
export type TransactionList = Static<typeof TransactionList>;

/** The query of `GET /listTransactions` (read by `transaction-routes.ts`). */
export const ListTransactionsQuery = Type.Object({
  status: Type.Optional(
    anyCase(
      StringEnum(TRANSACTION_STATUSES, { description: "Only transactions in this status (any case)." }),
    ),
  ),
  partner_transaction_id: Type.Optional(
    Type.String({ maxLength: 255, description: "Only transactions with this reference of yours." }),
  ),
  created_from: Type.Optional(
    QueryDate("Created at or after (inclusive): an RFC 3339 date-time with zone, or a date (midnight UTC).", [
      "2026-11-01",
      "2026-11-21T01:59:00Z",
    ]),
  ),
  created_to: Type.Optional(QueryDate("Created at or before (inclusive); same format as `created_from`.")),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: 20, description: "Page size." }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 255,
      description: "The `next_cursor` of the previous page, unchanged (opaque).",
    }),
  ),
});

export const TxIdParams = Type.Object({ tx_id: Type.String({ description: "The transaction's id." }) });

const DP_CASE: ErrorCase = ["INVALID_FIELD", "`dp` is not an integer from 0 to 10"];
const TX_NOT_FOUND: ErrorCase = ["TRANSACTION_NOT_FOUND", "no such transaction among yours"];
const REPLAYED = { "Idempotent-Replayed": headerRef("idempotentReplayed") };
const DP = parameterRef("dp");

export const previewQuotations = defineOperation({
  method: "POST",
  path: "/previewQuotations",
  operationId: "previewQuotations",
  tags: ["Pricing"],
  summary: "Preview prices in every supported currency (stateless)",
  description:
    "Converts `amount` in `currency` to USD, then returns one indicative quotation per currency in the account's `supported_currencies`. Creates no transaction: nothing appears in `listTransactions` and nothing expires against the account. Binding prices come from `getQuotation` on a real transaction. Checks run in this order: `INVALID_AMOUNT`, `MISSING_REQUIRED_FIELD`, `AUTHENTICATION_REQUIRED`, `RATE_LIMIT_EXCEEDED`, `INVALID_CURRENCY`. Rate-limited per app.",
  parameters: [DP],
  body: PreviewQuotationsRequest,
  responses: {
    200: {
      description: "Indicative quotations.",
      schema: PreviewQuotationsResponse,
      examples: { usd100: PREVIEW_EXAMPLE },
    },
  },
  // Seed: previewQuotations checks the body before the credentials, so its 401 comes after two 400s.
  ownErrorsOnly: true,
  errors: [
    ...JSON_BODY_CASES,
    ["INVALID_AMOUNT", "`amount` is missing, not a number or decimal string, or not greater than 0"],
    [
      "INVALID_AMOUNT",
      "`amount` has more decimals than `currency` has minor units (1.001 USD, 100.5 VND); checked after `currency`",
    ],
    ["MISSING_REQUIRED_FIELD", "`currency` is missing or not an ISO 4217 code"],
    DP_CASE,
    AUTH_CASE,
    AUTH_THROTTLE_CASE,
    [
      "RATE_LIMIT_EXCEEDED",
      "the app's per-minute previewQuotations limit is used up; retry after `Retry-After` seconds",
    ],
    ["INVALID_CURRENCY", "no exchange rate is available for `currency`"],
    INTERNAL_CASE,
    UNAVAILABLE_CASE,
    AUTH_BUSY_CASE,
  ],
  errorOptions: { examples: { 401: { authenticationRequired: ERROR_EXAMPLES.authenticationRequired } } },
});

export const getQuotation = defineOperation({
  method: "POST",
  path: "/getQuotation",
  operationId: "getQuotation",
  tags: ["Payouts"],
  summary: "Quote a PENDING transaction (binding)",
  description:
    "Prices `amount` for the transaction's corridor and attaches the quote to it; a newer quote replaces the older. The transaction stays PENDING. Execute before `expires_at`.",
  parameters: [DP],
  body: GetQuotationRequest,
  responses: {
    200: { description: "The binding quote.", schema: BindingQuote, examples: { brl540: QUOTE_EXAMPLE } },
  },
  errors: [
    ["MISSING_REQUIRED_FIELD", "`tx_id` or `amount` is absent"],
    [
      "INVALID_FIELD",
      "`tx_id` is not a string, `amount` not a decimal, `currency` not three letters or not the transaction's currency, or `dp` out of range",
    ],
    [
      "INVALID_AMOUNT",
      "`amount` is not greater than 0, has more decimals than the currency's minor units (100.123 BRL), or differs from the amount a dynamic QR fixes",
    ],
    ["AMOUNT_OUT_OF_RANGE", "the amount is outside the corridor's minimum or maximum"],
    ["UNSUPPORTED_COUNTRY", "the corridor is disabled"],
    ["INVALID_CURRENCY", "no exchange rate is available for the currency"],
    TX_NOT_FOUND,
    ["TRANSACTION_NOT_PENDING", "the transaction is no longer PENDING (executed, expired, …)"],
  ],
});

const COUNT_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven"];
/** executePayout's refusal order, written from the ledger's one list (the stored refusals come last). */
const REFUSAL_PRECEDENCE = `Refusals are answered in this precedence: ${PAYOUT_REFUSAL_ORDER.map((r) => `\`${r.reason}\``).join(", ")}; the last ${COUNT_WORDS[STORED_PAYOUT_REFUSALS.length]} are stored under the key and replayed like a success.`;

export const executePayout = defineOperation({
  method: "POST",
  path: "/executePayout",
  operationId: "executePayout",
  tags: ["Payouts"],
  summary: "Execute a quoted payout (idempotent)",
  description: `Debits \`amount_usd + percentage_fee + fixed_fee\` (the quote's \`total_usd\`, at full precision) from the balance, moves the transaction to PROCESSING and submits it to the payout rail, all exactly once per transaction. The outcome arrives later: SUCCESS or FAILED (debit reversed), visible in \`GET /transactions/{tx_id}\` and sent to your webhook receivers. ${REFUSAL_PRECEDENCE}`,
  parameters: [parameterRef("idempotencyKey"), DP],
  body: ExecutePayoutRequest,
  responses: {
    200: {
      description:
        "The transaction as accepted (PROCESSING), with its history. A replay answers the same snapshot with `Idempotent-Replayed: true`, even after the transaction moved on.",
      schema: Transaction,
      examples: { executed: TRANSACTION_EXAMPLES.executed },
      headers: REPLAYED,
    },
  },
  errors: [
    ["MISSING_IDEMPOTENCY_KEY", "neither `X-Idempotency-Key` nor `Idempotency-Key` is sent"],
    ["INVALID_FIELD", "the key is not 1–255 printable ASCII characters or is sent twice; `dp` out of range"],
    ["MISSING_REQUIRED_FIELD", "`tx_id` is absent"],
    TX_NOT_FOUND,
    ["IDEMPOTENCY_KEY_IN_USE", "a request with this key is still running; retry after `Retry-After` (1 s)"],
    [
      "TRANSACTION_NOT_PENDING",
      "the transaction is not PENDING (already executed with another key, expired, …)",
    ],
    ["QUOTE_REQUIRED", "no quote is attached: call `getQuotation` first"],
    ["QUOTE_EXPIRED", "the quote expired: quote again"],
    ["INSUFFICIENT_FUNDS", "the balance is lower than the quote's `total_usd`"],
    ["IDEMPOTENCY_KEY_REUSED", "the key was used with another body (or another `dp`)"],
  ],
  errorOptions: {
    headers: {
      409: {
        ...REPLAYED,
        "Retry-After": { description: "With `IDEMPOTENCY_KEY_IN_USE`: `1`.", schema: { type: "integer" } },
      },
    },
    examples: { 400: { missingIdempotencyKey: ERROR_EXAMPLES.missingIdempotencyKey } },
  },
});

export const listTransactions = defineOperation({
  method: "GET",
  path: "/listTransactions",
  operationId: "listTransactions",
  tags: ["Transactions"],
  summary: "List transactions, newest first",
  description: "Pages of at most `limit` transactions, newest first; follow `next_cursor` until it is null.",
  parameters: [DP],
  query: ListTransactionsQuery,
  responses: {
    200: {
      description: "A page of transactions.",
      schema: TransactionList,
      examples: { page: TRANSACTION_LIST_EXAMPLE },
    },
  },
  errors: [
    DP_CASE,
    [
      "INVALID_FIELD",
      "a filter is malformed or given twice: unknown `status`, a date without a zone, `limit` outside 1–100, a `cursor` not returned by this route",
    ],
  ],
});

export const getTransaction = defineOperation({
  method: "GET",
  path: "/transactions/{tx_id}",
  operationId: "getTransaction",
  tags: ["Transactions"],
  summary: "Read a transaction and its status history",
  pathParams: TxIdParams,
  parameters: [DP],
  responses: {
    200: {
      description: "The transaction.",
      schema: Transaction,
      examples: { settled: TRANSACTION_EXAMPLES.settled, failed: TRANSACTION_EXAMPLES.failed },
    },
  },
  errors: [DP_CASE, TX_NOT_FOUND],
});

export const getBalance = defineOperation({
  method: "GET",
  path: "/balance",
  operationId: "getBalance",
  tags: ["Transactions"],
  summary: "Read the partner's USD balance",
  description:
    "What you may spend. Payouts debit it when executed; failures and refunds credit it back in full.",
  parameters: [DP],
  responses: {
    200: { description: "The balance.", schema: Balance, examples: { afterOnePayout: BALANCE_EXAMPLE } },
  },
  errors: [DP_CASE],
});

export const TRANSACTION_OPERATIONS = [
  previewQuotations,
  getQuotation,
  executePayout,
  listTransactions,
  getTransaction,
  getBalance,
] as const;
