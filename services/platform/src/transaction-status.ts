/**
 * The transaction statuses, derived once from the proto enum `payouts.ledger.v1.TransactionStatus`, and the
 * one mapping between the enum and the status names on the wire (JSON bodies, query filters, the SQL column):
 * a status's wire name is its enum value's name without the `TRANSACTION_STATUS_` prefix.
 *
 * The ledger's state machine, the gateway's renderers and OpenAPI shapes use this list; the SDK and the
 * console read the same names from the OpenAPI document the gateway generates from it.
 */
import { TransactionStatus, TransactionStatusSchema } from "@payouts/proto/payouts/ledger/v1/ledger_pb";

/** A status a transaction can be in: every enum value but UNSPECIFIED, by its wire name. */
export type TransactionStatusName = Exclude<keyof typeof TransactionStatus, "UNSPECIFIED">;

/** The wire names in the enum's order (PENDING, PROCESSING, SUCCESS, FAILED, REFUNDED, EXPIRED). */
export const TRANSACTION_STATUSES: readonly TransactionStatusName[] = TransactionStatusSchema.values
  .filter((value) => value.number !== TransactionStatus.UNSPECIFIED)
  .map((value) => value.localName as TransactionStatusName);

/** The wire name of the unset enum value; admin views show it for a status that is not set. */
export const UNSPECIFIED_STATUS = "UNSPECIFIED";

export function isTransactionStatusName(value: string): value is TransactionStatusName {
  return (TRANSACTION_STATUSES as readonly string[]).includes(value);
}

export function statusToProto(name: TransactionStatusName): TransactionStatus {
  return TransactionStatus[name];
}

/** The status named `name` (exact case), or undefined for any other text, UNSPECIFIED included. */
export function statusFromName(name: string): TransactionStatus | undefined {
  return isTransactionStatusName(name) ? TransactionStatus[name] : undefined;
}

/** The wire name of a set status, or undefined for UNSPECIFIED and numbers the enum does not declare. */
export function statusNameOf(status: TransactionStatus): TransactionStatusName | undefined {
  const name = TransactionStatus[status] as string | undefined;
  return name !== undefined && isTransactionStatusName(name) ? name : undefined;
}

/** The wire name of any enum value: UNSPECIFIED for the unset value and for numbers the enum does not declare. */
export function statusWireName(status: TransactionStatus): TransactionStatusName | typeof UNSPECIFIED_STATUS {
  return statusNameOf(status) ?? UNSPECIFIED_STATUS;
}
