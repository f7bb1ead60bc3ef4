/**
 * The transaction state machine. The partner API names PENDING, SUCCESS and REFUNDED; PROCESSING,
 * FAILED and EXPIRED are this platform's documented extensions. Terminal states never move again.
 * The statuses themselves are the proto enum's, listed once in @payouts/platform/transaction-status.
 */
import { isTransactionStatusName, type TransactionStatusName } from "@payouts/platform/transaction-status";

export type TxStatus = TransactionStatusName;

const NEXT: Readonly<Record<TxStatus, readonly TxStatus[]>> = {
  PENDING: ["PROCESSING", "EXPIRED"],
  PROCESSING: ["SUCCESS", "FAILED"],
  SUCCESS: ["REFUNDED"],
  FAILED: [],
  REFUNDED: [],
  EXPIRED: [],
};

export const isTxStatus: (value: string) => value is TxStatus = isTransactionStatusName;

export function canTransition(from: TxStatus, to: TxStatus): boolean {
  return NEXT[from].includes(to);
}

export function isTerminal(status: TxStatus): boolean {
  return NEXT[status].length === 0;
}

/** The outbox event each arrival in a state produces; creation (no previous state) is PENDING's. */
const EVENT_TYPE: Readonly<Record<TxStatus, string>> = {
  PENDING: "transaction.created",
  PROCESSING: "transaction.processing",
  SUCCESS: "transaction.success",
  FAILED: "transaction.failed",
  REFUNDED: "transaction.refunded",
  EXPIRED: "transaction.expired",
};

export function eventTypeFor(status: TxStatus): string {
  return EVENT_TYPE[status];
}
