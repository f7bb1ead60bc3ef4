/**
 * The UPDATE that moves a batch item to the status its transaction arrives in, as a part of the
 * transition's statement (services/ledger/src/operations/transition.ts), so the two never disagree.
 */
import type { Statement } from "../../store/statement.js";
import type { ItemStatus } from "../domain/batch-status.js";

export function addItemFollowsTransaction(
  st: Statement,
  txId: string,
  status: ItemStatus,
  now: Date,
  failureReason: string,
): string {
  return st.with(
    "batch_item_update",
    `UPDATE ledger.batch_items
        SET status = ${st.p(status)}, updated_at = ${st.p(now)},
            failure_reason = CASE WHEN ${st.p(failureReason)} = '' THEN failure_reason ELSE ${st.p(failureReason)} END
      WHERE tx_id = ${st.p(txId)}`,
  );
}
