/**
 * Pricing and execution (`pricing-routes.ts`, `transaction-routes.ts`): indicative prices for every
 * currency, the binding quote of a PENDING transaction, and the idempotent payout.
 */
import { PAYOUT_REFUSAL_ORDER, STORED_PAYOUT_REFUSALS } from "@payouts/ledger/payout-refusals";
import { defineOperations } from "../../api/operation.js";
import {
  AmountInput,
  ClosedObject,
  component,
  DecimalInput,
  ExchangeRate,
  LocalAmount,
  Nullable,
  type Static,
  Type,
  UsdAmount,
} from "../../api/schema.js";
import { headerRef, parameterRef } from "../../openapi/openapi-components.js";
import {
  AUTH_BUSY_CASE,
  AUTH_CASE,
  AUTH_THROTTLE_CASE,
  INTERNAL_CASE,
  JSON_BODY_CASES,
  UNAVAILABLE_CASE,
} from "../../openapi/openapi-errors.js";
import {
  ERROR_EXAMPLES,
  PREVIEW_EXAMPLE,
  QUOTE_EXAMPLE,
  TRANSACTION_EXAMPLES,
} from "../../openapi/openapi-examples.js";
import { DP, DP_CASE, Transaction, TX_NOT_FOUND } from "./transaction-api.js";

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

export const QuotationItem = ClosedObject("QuotationItem", {
  amount: LocalAmount("The previewed amount converted to `currency`,"),
  currency: Type.String({ description: "Target currency, one of the account's supported currencies." }),
  ...QUOTE_FIELDS,
  expires_at: Nullable(
    Type.String({
      format: "date-time",
      description: "Always 30 minutes after the response time. Indicative only: nothing is reserved.",
    }),
  ),
});
export type QuotationItem = Static<typeof QuotationItem>;

const PreviewQuotationsResponse = ClosedObject(
  "PreviewQuotationsResponse",
  { quotations: Type.Array(QuotationItem) },
  {
    description:
      "One quotation per supported currency of the account (only USD when none is configured), in the account's order. A currency without an FX rate, or whose converted amount is outside its corridor's limits, is left out; the list may be empty.",
  },
);

export const GetQuotationRequest = component(
  "GetQuotationRequest",
  Type.Object({
    tx_id: Type.String({
      maxLength: 100,
      description: "A PENDING transaction from `lookupPaymentCode` or `decodeQr`.",
    }),
    amount: AmountInput("Local-currency amount; must be greater than 0.", { exclusiveMinimum: 0 }),
    currency: Type.Optional(
      Type.String({
        pattern: "^[A-Za-z]{3}$",
        description: "ISO 4217 code; when sent it must be the transaction's currency (any case).",
      }),
    ),
  }),
);

export const BindingQuote = ClosedObject(
  "BindingQuote",
  {
    tx_id: Type.String({ description: "The transaction quoted." }),
    amount: LocalAmount("The payout amount"),
    currency: Type.String({ description: "The transaction's currency." }),
    ...QUOTE_FIELDS,
    total_usd: UsdAmount("`amount_usd + fee`, what executePayout debits"),
    expires_at: Nullable.Timestamp("After this the quote cannot be executed (`QUOTE_EXPIRED`): quote again."),
  },
  {
    description:
      "A binding price, attached to the transaction (a newer quote replaces the older). `executePayout` debits `total_usd` at full precision.",
  },
);
export type BindingQuote = Static<typeof BindingQuote>;

export const ExecutePayoutRequest = component(
  "ExecutePayoutRequest",
  Type.Object({
    tx_id: Type.String({ maxLength: 100, description: "A PENDING transaction with an unexpired quote." }),
  }),
);

const REPLAYED = { "Idempotent-Replayed": headerRef("idempotentReplayed") };

const COUNT_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven"];
/** executePayout's refusal order, written from the ledger's one list (the stored refusals come last). */
const REFUSAL_PRECEDENCE = `Refusals are answered in this precedence: ${PAYOUT_REFUSAL_ORDER.map((r) => `\`${r.reason}\``).join(", ")}; the last ${COUNT_WORDS[STORED_PAYOUT_REFUSALS.length]} are stored under the key and replayed like a success.`;

const operations = defineOperations(
  { tags: ["Payouts"] },
  {
    previewQuotations: {
      route: "POST /previewQuotations",
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
      // previewQuotations checks the body before the credentials, so its 401 comes after two 400s.
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
    },
    getQuotation: {
      route: "POST /getQuotation",
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
    },
    executePayout: {
      route: "POST /executePayout",
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
        [
          "INVALID_FIELD",
          "the key is not 1–255 printable ASCII characters or is sent twice; `dp` out of range",
        ],
        ["MISSING_REQUIRED_FIELD", "`tx_id` is absent"],
        TX_NOT_FOUND,
        [
          "IDEMPOTENCY_KEY_IN_USE",
          "a request with this key is still running; retry after `Retry-After` (1 s)",
        ],
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
            "Retry-After": {
              description: "With `IDEMPOTENCY_KEY_IN_USE`: `1`.",
              schema: { type: "integer" },
            },
          },
        },
        examples: { 400: { missingIdempotencyKey: ERROR_EXAMPLES.missingIdempotencyKey } },
      },
    },
  },
);
export const { previewQuotations, getQuotation, executePayout } = operations;
export const QUOTE_OPERATIONS = Object.values(operations);
