/** A transaction of a partner's reconciliation view of a day, as payouts.ledger.v1.DayTransaction. */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { toDecimalString } from "@payouts/platform/money/decimal";
import type { DayTransaction as DayTransactionMessage } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type { DayTransaction } from "../operations/list-day-transactions.js";
import { toProtoStatus } from "./transaction-message.js";

type Plain<T> = Omit<T, "$typeName">;

export function toDayTransactionMessage(item: DayTransaction): Plain<DayTransactionMessage> {
  const tx = item.transaction;
  const decimal = (value: Parameters<typeof toDecimalString>[0] | undefined) =>
    value === undefined ? "" : toDecimalString(value);
  return {
    txId: tx.txId,
    partnerTransactionId: tx.partnerTransactionId,
    status: toProtoStatus(tx.status),
    createdAt: timestampFromDate(tx.createdAt),
    amount: decimal(tx.amount),
    currency: tx.currency,
    amountUsd: decimal(tx.quote?.amountUsd),
    feeUsd: decimal(item.feeUsd),
    balanceEffectUsd: toDecimalString(item.balanceEffect),
    lines: item.lines.map((line) => ({
      $typeName: "payouts.ledger.v1.DayTransactionLine" as const,
      id: line.id,
      type: line.type,
      amountUsd: toDecimalString(line.amountUsd),
      createdAt: timestampFromDate(line.createdAt),
      statementDate: line.statementDate,
    })),
  };
}
