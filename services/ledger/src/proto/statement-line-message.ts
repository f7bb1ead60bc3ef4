/** A statement line as the proto message both the feed and the daily statements answer. */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { toDecimalString } from "@payouts/platform/money/decimal";
import type { StatementLine as LineMessage } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type { StatementLine } from "../domain/statement-lines.js";

export function toStatementLineMessage(line: StatementLine): Omit<LineMessage, "$typeName"> {
  return {
    id: line.id,
    type: line.type,
    txId: line.txId ?? "",
    partnerTransactionId: line.partnerTransactionId ?? "",
    amount: line.localAmount ? toDecimalString(line.localAmount) : "",
    currency: line.currency ?? "",
    exchangeRate: line.exchangeRate ? toDecimalString(line.exchangeRate) : "",
    amountUsd: toDecimalString(line.amountUsd),
    createdAt: timestampFromDate(line.createdAt),
    balanceAfterUsd: toDecimalString(line.balanceAfter),
  };
}
