/** A statement line as the proto message both the feed and the daily statements answer. */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { StatementLine as LineMessage } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { formatScaled } from "../domain/scaled-amount.js";
import { type ScaledLine, type StatementLine, toScaledLine } from "../domain/statement-lines.js";

export function toScaledLineMessage(line: ScaledLine): Omit<LineMessage, "$typeName"> {
  return {
    id: line.id,
    type: line.type,
    txId: line.txId ?? "",
    partnerTransactionId: line.partnerTransactionId ?? "",
    amount: line.localAmount ?? "",
    currency: line.currency ?? "",
    exchangeRate: line.exchangeRate ?? "",
    amountUsd: formatScaled(line.amountUsd),
    createdAt: timestampFromDate(line.createdAt),
    balanceAfterUsd: formatScaled(line.balanceAfter),
  };
}

export function toStatementLineMessage(line: StatementLine): Omit<LineMessage, "$typeName"> {
  return toScaledLineMessage(toScaledLine(line));
}
