/**
 * The transaction record and its operations (`transaction-routes.ts`): list, read and the balance, and the
 * transaction shapes other groups share (status, parties).
 */
import { TRANSACTION_STATUSES } from "@payouts/platform/transaction-status";
import { defineOperations } from "../../api/operation.js";
import {
  anyCase,
  ClosedObject,
  component,
  ExchangeRate,
  FreeMap,
  LocalAmount,
  Nullable,
  QueryDate,
  type Static,
  StringEnum,
  Type,
  UsdAmount,
} from "../../api/schema.js";
import { parameterRef } from "../../openapi/openapi-components.js";
import type { ErrorCase } from "../../openapi/openapi-errors.js";
import {
  BALANCE_EXAMPLE,
  TRANSACTION_EXAMPLES,
  TRANSACTION_LIST_EXAMPLE,
} from "../../openapi/openapi-examples.js";

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

export const Balance = ClosedObject("Balance", {
  balance_usd: UsdAmount("What the partner may spend"),
  currency: Type.Literal("USD", { description: "Always `USD`." }),
});
export type Balance = Static<typeof Balance>;

const StatusChange = ClosedObject("StatusChange", {
  from: Type.Unsafe<TransactionStatusName | null>({
    type: ["string", "null"],
    enum: [...TRANSACTION_STATUSES, null],
    description: "Previous status; null for the creation.",
  }),
  to: TransactionStatus,
  reason: Type.String({
    description: "Why, e.g. `created`, `executePayout`, `rail reported success`, the rail's failure reason.",
  }),
  at: Nullable.Timestamp("When."),
});
export type StatusChange = Static<typeof StatusChange>;

const optionalText = (description: string) => Type.Optional(Type.String({ description }));

export const QrDataShape = ClosedObject(
  "QrData",
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
    description:
      "Who pays whom, as lookup or decodeQr established it; empty parts are left out. The sender and recipient details live here.",
  },
);

export type QrData = Static<typeof QrDataShape>;

export const Transaction = ClosedObject(
  "Transaction",
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
    created_at: Nullable.Timestamp("Creation time."),
    updated_at: Nullable.Timestamp("Last status change."),
    status_history: Type.Optional(
      Type.Array(StatusChange, { description: "Every status change, oldest first." }),
    ),
  },
  {
    description:
      "A transaction. Pricing fields appear once a quote is attached. `status_history` appears on `GET /transactions/{tx_id}` and on executePayout answers, not in lists.",
  },
);
export type Transaction = Static<typeof Transaction>;

const TransactionList = ClosedObject("TransactionList", {
  transactions: Type.Array(Transaction, { description: "Newest first (by creation time, then tx_id)." }),
  next_cursor: Nullable.Text("Pass as `cursor` for the next page; null on the last page."),
});
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

export const DP_CASE: ErrorCase = ["INVALID_FIELD", "`dp` is not an integer from 0 to 10"];
export const TX_NOT_FOUND: ErrorCase = ["TRANSACTION_NOT_FOUND", "no such transaction among yours"];
export const DP = parameterRef("dp");

const operations = defineOperations(
  { tags: ["Transactions"] },
  {
    listTransactions: {
      route: "GET /listTransactions",
      summary: "List transactions, newest first",
      description:
        "Pages of at most `limit` transactions, newest first; follow `next_cursor` until it is null.",
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
    },
    getTransaction: {
      route: "GET /transactions/{tx_id}",
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
    },
    getBalance: {
      route: "GET /balance",
      summary: "Read the partner's USD balance",
      description:
        "What you may spend. Payouts debit it when executed; failures and refunds credit it back in full.",
      parameters: [DP],
      responses: {
        200: { description: "The balance.", schema: Balance, examples: { afterOnePayout: BALANCE_EXAMPLE } },
      },
      errors: [DP_CASE],
    },
  },
);
export const { listTransactions, getTransaction, getBalance } = operations;
export const TRANSACTION_OPERATIONS = Object.values(operations);
