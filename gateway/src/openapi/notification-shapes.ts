/**
 * What the webhook dispatcher POSTs to partners' receivers, and the receivers' answers: the `webhooks`
 * section of the partner document (`outbound-webhooks.ts`). The body's members are in the order the
 * dispatcher writes them (services/webhooks/src/domain/payload.ts).
 */
import { component, FreeMap, MoneyNumber, type Static, type TSchema, Type } from "../api/schema.js";
import { RECIPIENT_DESCRIPTION, SENDER_DESCRIPTION } from "../operations/partner/transaction-api.js";

const notification = <const S extends string, const E extends string>(
  name: string,
  status: S,
  eventType: E,
  reason: Record<string, TSchema>,
) =>
  component(
    name,
    Type.Object(
      {
        tx_id: Type.String({ description: "The transaction." }),
        status: Type.Literal(status, { description: `Always \`${status}\`.` }),
        amount: Type.Optional(MoneyNumber("Local amount, at the currency's ISO 4217 minor units.")),
        fee: Type.Optional(MoneyNumber("USD, 2 decimals: `percentage_fee + fixed_fee`.")),
        percentage_fee: Type.Optional(MoneyNumber("USD, 2 decimals.")),
        fixed_fee: Type.Optional(MoneyNumber("USD, 2 decimals.")),
        sender: Type.Optional(FreeMap(`Only when known. ${SENDER_DESCRIPTION}`)),
        recipient: Type.Optional(FreeMap(`Only when known. ${RECIPIENT_DESCRIPTION}`)),
        ...reason,
        event_id: Type.String({
          description: "Unique per event and stable across retries and redeliveries: deduplicate by it.",
        }),
        event_type: Type.Literal(eventType, { description: "Event kind." }),
        occurred_at: Type.String({
          format: "date-time",
          description: "When the transaction changed status.",
        }),
        test: Type.Optional(
          Type.Literal(true, {
            description: "Only on notifications sent by `POST /webhookConfigs/{id}/test`: never book them.",
          }),
        ),
      },
      {
        additionalProperties: false,
        description: `Body of \`${eventType}\`: UTF-8 JSON whose bytes are fixed when the event is taken in and signed as sent. Money is written with fixed decimals.`,
      },
    ),
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

export const SuccessReceiverAnswer = component(
  "SuccessReceiverAnswer",
  Type.Object(
    {},
    {
      additionalProperties: false,
      description: "The expected answer to a success notification: an empty JSON object.",
    },
  ),
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
  SuccessReceiverAnswer,
  RefundedReceiverAnswer,
];
