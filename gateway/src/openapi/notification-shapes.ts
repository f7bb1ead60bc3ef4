/**
 * What the webhook dispatcher POSTs to partners' receivers, and the receivers' answers: the `webhooks`
 * section of the partner document (`outbound-webhooks.ts`). The body's members are in the order the
 * dispatcher writes them (services/webhooks/src/domain/payload.ts).
 */
import {
  ClosedObject,
  component,
  FreeMap,
  MoneyNumber,
  Nullable,
  type Static,
  type TSchema,
  Type,
} from "../api/schema.js";
import { RECIPIENT_DESCRIPTION, SENDER_DESCRIPTION } from "../operations/partner/transaction-api.js";

/** The members every notification ends with: its event's id and type, and when it happened. */
const eventFields = <const E extends string>(eventType: E, occurredAt: string) => ({
  event_id: Type.String({
    description: "Unique per event and stable across retries and redeliveries: deduplicate by it.",
  }),
  event_type: Type.Literal(eventType, { description: "Event kind." }),
  occurred_at: Type.String({ format: "date-time", description: occurredAt }),
});

/** A notification body's description: how its bytes are fixed and signed, then how it writes amounts. */
const signedBody = (eventType: string, amounts: string) =>
  `Body of \`${eventType}\`: UTF-8 JSON whose bytes are fixed when the event is taken in and signed as sent. ${amounts}`;

const notification = <const S extends string, const E extends string>(
  name: string,
  status: S,
  eventType: E,
  reason: Record<string, TSchema>,
) =>
  ClosedObject(
    name,
    {
      tx_id: Type.String({ description: "The transaction." }),
      batch_id: Type.Optional(
        Type.String({
          description:
            "Only when the payout is an item of a bulk payout: its batch (`GET /batches/{batch_id}`).",
        }),
      ),
      item_ref: Type.Optional(
        Type.String({
          description:
            "Only when the payout is an item of a bulk payout: the item's `item_ref` in its batch.",
        }),
      ),
      status: Type.Literal(status, { description: `Always \`${status}\`.` }),
      amount: Type.Optional(MoneyNumber("Local amount, at the currency's ISO 4217 minor units.")),
      fee: Type.Optional(MoneyNumber("USD, 2 decimals: `percentage_fee + fixed_fee`.")),
      percentage_fee: Type.Optional(MoneyNumber("USD, 2 decimals.")),
      fixed_fee: Type.Optional(MoneyNumber("USD, 2 decimals.")),
      sender: Type.Optional(FreeMap(`Only when known. ${SENDER_DESCRIPTION}`)),
      recipient: Type.Optional(FreeMap(`Only when known. ${RECIPIENT_DESCRIPTION}`)),
      ...reason,
      ...eventFields(eventType, "When the transaction changed status."),
      test: Type.Optional(
        Type.Literal(true, {
          description: "Only on notifications sent by `POST /webhookConfigs/{id}/test`: never book them.",
        }),
      ),
    },
    {
      description: signedBody(eventType, "Money is written with fixed decimals."),
    },
  );

export const TransactionSuccessNotification = notification(
  "TransactionSuccessNotification",
  "SUCCESS",
  "transaction.success",
  {},
);
export const TransactionRefundedNotification = notification(
  "TransactionRefundedNotification",
  "REFUNDED",
  "transaction.refunded",
  {
    refund_reason: Type.Optional(
      Type.String({ description: "Only when operations gave a reason with the refund." }),
    ),
  },
);
export const TransactionFailedNotification = notification(
  "TransactionFailedNotification",
  "FAILED",
  "transaction.failed",
  { failure_reason: Type.Optional(Type.String({ description: "Only when the rail gave a reason." })) },
);
export type TransactionNotification =
  | Static<typeof TransactionSuccessNotification>
  | Static<typeof TransactionRefundedNotification>
  | Static<typeof TransactionFailedNotification>;
export type StatementClosedNotificationBody = Static<typeof StatementClosedNotification>;

const UsdAmount = (description: string) =>
  Type.String({ pattern: "^-?\\d+(\\.\\d+)?$", description: `USD decimal string, exact. ${description}` });

export const StatementClosedNotification = ClosedObject(
  "StatementClosedNotification",
  {
    statement_id: Type.String({
      description: "The closed day's statement (`GET /statements/daily/{date}`).",
    }),
    partner_id: Type.String({ description: "The partner." }),
    date: Type.String({
      pattern: "^\\d{4}-\\d{2}-\\d{2}$",
      description: "The day, YYYY-MM-DD in `time_zone`.",
    }),
    time_zone: Type.String({ description: "The partner's statement time zone (IANA)." }),
    period_start: Type.String({ format: "date-time", description: "The day's local midnight, in UTC." }),
    period_end: Type.String({ format: "date-time", description: "The next day's local midnight, in UTC." }),
    revision: Type.Integer({ minimum: 1, description: "1 for a day's first statement." }),
    currency: Type.Literal("USD", { description: "Always `USD`." }),
    opening_balance_usd: UsdAmount("Balance before the day's first line."),
    closing_balance_usd: UsdAmount("Balance after the day's last line."),
    line_count: Type.Integer({ minimum: 0, description: "Lines of the day." }),
    total_debits_usd: UsdAmount("Sum of the negative lines, as a positive amount."),
    total_credits_usd: UsdAmount("Sum of the positive lines."),
    sha256: Type.String({
      pattern: "^[0-9a-f]{64}$",
      description: "The closed statement's hash (its ETag): compare with the statement you download.",
    }),
    ...eventFields("statement.closed", "When the day was closed."),
  },
  {
    description: signedBody("statement.closed", "Amounts are decimal strings, as in the daily statement."),
  },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const BatchCompletedNotification = ClosedObject(
  "BatchCompletedNotification",
  {
    batch_id: Type.String({ description: "The batch (`GET /batches/{batch_id}`)." }),
    partner_id: Type.String({ description: "The partner." }),
    status: Type.Literal("COMPLETED", { description: "Always `COMPLETED`." }),
    parent_batch_id: Nullable.Text(
      "The batch this one retries (made by `POST /batches/{batch_id}/retry-failed`); null otherwise.",
    ),
    counts: Type.Object(
      {
        total: Count("Items in the batch."),
        succeeded: Count("Items paid (SUCCESS)."),
        failed: Count("Items funded whose payout failed (FAILED); their share is back on the balance."),
        invalid: Count("Items refused at validation (INVALID), never funded."),
        excluded: Count("Items left out (EXCLUDED) because the verified holder name differed, never funded."),
      },
      { additionalProperties: false, description: "Items by outcome." },
    ),
    paid_usd: UsdAmount("Sum of the succeeded items' debits."),
    released_usd: UsdAmount(
      "What completion returned from the batch's reservation to the balance: the shares of funded items never sent to the rail (a payout the rail failed is returned by its own reversal).",
    ),
    ...eventFields("batch.completed", "When the batch completed."),
  },
  {
    description: signedBody(
      "batch.completed",
      "Amounts are decimal strings, exactly as the ledger booked them.",
    ),
  },
);

export const SuccessReceiverAnswer = ClosedObject(
  "SuccessReceiverAnswer",
  {},
  { description: "The expected answer to a success notification: an empty JSON object." },
);
export const RefundedReceiverAnswer = component(
  "RefundedReceiverAnswer",
  Type.Object(
    {
      received: Type.Optional(Type.Boolean({ description: "Whether the refund was taken in." })),
      message: Type.Optional(Type.String({ description: "Free text." })),
    },
    { description: "The expected answer to a refund notification (stored in the delivery log)." },
  ),
);

/** Every shape of the `webhooks` section, emitted into `components.schemas`. */
export const NOTIFICATION_SHAPES: readonly TSchema[] = [
  TransactionSuccessNotification,
  TransactionRefundedNotification,
  TransactionFailedNotification,
  StatementClosedNotification,
  BatchCompletedNotification,
  SuccessReceiverAnswer,
  RefundedReceiverAnswer,
];
