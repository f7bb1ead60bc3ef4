/**
 * Paths of pricing, execution and the transaction record (`routes/pricing-routes.ts`,
 * `routes/transaction-routes.ts`).
 */
import { COMMON_PARAMETERS, headerRef, jsonBody, jsonResponse, parameterRef } from "./openapi-components.js";
import {
  AUTH_BUSY_CASE,
  AUTH_CASE,
  AUTH_THROTTLE_CASE,
  errorResponses,
  INTERNAL_CASE,
  JSON_BODY_CASES,
  partnerErrors,
  UNAVAILABLE_CASE,
} from "./openapi-errors.js";
import {
  BALANCE_EXAMPLE,
  ERROR_EXAMPLES,
  PREVIEW_EXAMPLE,
  QUOTE_EXAMPLE,
  TRANSACTION_EXAMPLES,
  TRANSACTION_LIST_EXAMPLE,
} from "./openapi-examples.js";
import type { Parameter, PathItem } from "./openapi-types.js";

const DP_CASE = ["INVALID_FIELD", "`dp` is not an integer from 0 to 10"] as const;
const TX_NOT_FOUND = ["TRANSACTION_NOT_FOUND", "no such transaction among yours"] as const;

const query = (name: string, description: string, schema: Parameter["schema"]): Parameter => ({
  name,
  in: "query",
  required: false,
  description,
  schema,
});

const LIST_FILTERS: readonly Parameter[] = [
  query("status", "Only transactions in this status (any case).", {
    type: "string",
    enum: ["PENDING", "PROCESSING", "SUCCESS", "FAILED", "REFUNDED", "EXPIRED"],
  }),
  query("partner_transaction_id", "Only transactions with this reference of yours.", {
    type: "string",
    maxLength: 255,
  }),
  query(
    "created_from",
    "Created at or after (inclusive): an RFC 3339 date-time with zone, or a date (midnight UTC).",
    { type: "string", examples: ["2026-11-01", "2026-11-21T01:59:00Z"] },
  ),
  query("created_to", "Created at or before (inclusive); same format as `created_from`.", { type: "string" }),
  query("limit", "Page size.", { type: "integer", minimum: 1, maximum: 100, default: 20 }),
  query("cursor", "The `next_cursor` of the previous page, unchanged (opaque).", {
    type: "string",
    maxLength: 255,
  }),
];

// Seed: previewQuotations checks the body before the credentials, so its 401 comes after two 400s.
const PREVIEW_ERRORS = errorResponses(
  [
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
  { examples: { 401: { authenticationRequired: ERROR_EXAMPLES.authenticationRequired } } },
);

const REPLAYED = { "Idempotent-Replayed": headerRef("idempotentReplayed") };

export const PAYOUT_PATHS: Readonly<Record<string, PathItem>> = {
  "/previewQuotations": {
    post: {
      operationId: "previewQuotations",
      tags: ["Pricing"],
      summary: "Preview prices in every supported currency (stateless)",
      description:
        "Converts `amount` in `currency` to USD, then returns one indicative quotation per currency in the account's `supported_currencies`. Creates no transaction: nothing appears in `listTransactions` and nothing expires against the account. Binding prices come from `getQuotation` on a real transaction. Checks run in this order: `INVALID_AMOUNT`, `MISSING_REQUIRED_FIELD`, `AUTHENTICATION_REQUIRED`, `RATE_LIMIT_EXCEEDED`, `INVALID_CURRENCY`. Rate-limited per app.",
      parameters: [...COMMON_PARAMETERS, parameterRef("dp")],
      requestBody: jsonBody("PreviewQuotationsRequest"),
      responses: {
        "200": jsonResponse("Indicative quotations.", "PreviewQuotationsResponse", {
          usd100: PREVIEW_EXAMPLE,
        }),
        ...PREVIEW_ERRORS,
      },
    },
  },
  "/getQuotation": {
    post: {
      operationId: "getQuotation",
      tags: ["Payouts"],
      summary: "Quote a PENDING transaction (binding)",
      description:
        "Prices `amount` for the transaction's corridor and attaches the quote to it; a newer quote replaces the older. The transaction stays PENDING. Execute before `expires_at`.",
      parameters: [...COMMON_PARAMETERS, parameterRef("dp")],
      requestBody: jsonBody("GetQuotationRequest"),
      responses: {
        "200": jsonResponse("The binding quote.", "BindingQuote", { brl540: QUOTE_EXAMPLE }),
        ...partnerErrors(
          [
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
          { body: true },
        ),
      },
    },
  },
  "/executePayout": {
    post: {
      operationId: "executePayout",
      tags: ["Payouts"],
      summary: "Execute a quoted payout (idempotent)",
      description:
        "Debits `amount_usd + percentage_fee + fixed_fee` (the quote's `total_usd`, at full precision) from the balance, moves the transaction to PROCESSING and submits it to the payout rail, all exactly once per transaction. The outcome arrives later: SUCCESS or FAILED (debit reversed), visible in `GET /transactions/{tx_id}` and sent to your webhook receivers. Refusals are answered in this precedence: `TRANSACTION_NOT_FOUND`, `IDEMPOTENCY_KEY_IN_USE`, `IDEMPOTENCY_KEY_REUSED`, `TRANSACTION_NOT_PENDING`, `QUOTE_REQUIRED`, `QUOTE_EXPIRED`, `INSUFFICIENT_FUNDS`; the last four are stored under the key and replayed like a success.",
      parameters: [...COMMON_PARAMETERS, parameterRef("idempotencyKey"), parameterRef("dp")],
      requestBody: jsonBody("ExecutePayoutRequest"),
      responses: {
        "200": jsonResponse(
          "The transaction as accepted (PROCESSING), with its history. A replay answers the same snapshot with `Idempotent-Replayed: true`, even after the transaction moved on.",
          "Transaction",
          { executed: TRANSACTION_EXAMPLES.executed },
          REPLAYED,
        ),
        ...partnerErrors(
          [
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
          {
            body: true,
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
        ),
      },
    },
  },
  "/listTransactions": {
    get: {
      operationId: "listTransactions",
      tags: ["Transactions"],
      summary: "List transactions, newest first",
      description:
        "Pages of at most `limit` transactions, newest first; follow `next_cursor` until it is null.",
      parameters: [...COMMON_PARAMETERS, parameterRef("dp"), ...LIST_FILTERS],
      responses: {
        "200": jsonResponse("A page of transactions.", "TransactionList", { page: TRANSACTION_LIST_EXAMPLE }),
        ...partnerErrors([
          DP_CASE,
          [
            "INVALID_FIELD",
            "a filter is malformed or given twice: unknown `status`, a date without a zone, `limit` outside 1–100, a `cursor` not returned by this route",
          ],
        ]),
      },
    },
  },
  "/transactions/{tx_id}": {
    get: {
      operationId: "getTransaction",
      tags: ["Transactions"],
      summary: "Read a transaction and its status history",
      parameters: [
        ...COMMON_PARAMETERS,
        {
          name: "tx_id",
          in: "path",
          required: true,
          description: "The transaction's id.",
          schema: { type: "string" },
        },
        parameterRef("dp"),
      ],
      responses: {
        "200": jsonResponse("The transaction.", "Transaction", {
          settled: TRANSACTION_EXAMPLES.settled,
          failed: TRANSACTION_EXAMPLES.failed,
        }),
        ...partnerErrors([DP_CASE, TX_NOT_FOUND]),
      },
    },
  },
  "/balance": {
    get: {
      operationId: "getBalance",
      tags: ["Transactions"],
      summary: "Read the partner's USD balance",
      description:
        "What you may spend. Payouts debit it when executed; failures and refunds credit it back in full.",
      parameters: [...COMMON_PARAMETERS, parameterRef("dp")],
      responses: {
        "200": jsonResponse("The balance.", "Balance", { afterOnePayout: BALANCE_EXAMPLE }),
        ...partnerErrors([DP_CASE]),
      },
    },
  },
};
