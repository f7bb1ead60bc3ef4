import { useMutation, useQueryClient } from "@tanstack/react-query";
import { isApprovalRequest, type Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { ConfirmDialog, ReasonField, useReasonDialog } from "../components/confirm-dialog";
import { formatDecimal, roundDecimal } from "../components/format";
import { useNotice } from "../components/result-notice";

type Action = { kind: "refund" } | { kind: "fail" } | { kind: "settle"; outcome: "SUCCESS" | "FAILED" };

/** Why a reason must be given, by action; settling needs none. */
const REASON_REQUIRED: Record<Action["kind"], string | undefined> = {
  refund: "Say why the payout is refunded; the partner and the audit trail see it.",
  fail: "Say why the payout is failed; the partner sees it in the webhook.",
  settle: undefined,
};

/**
 * What an operator may do to a transaction in its current status: refund a successful payout (the full
 * debit, fees included, goes back to the partner's balance), force the failure of a payout in flight the
 * provider confirmed it will not pay, or, on the sandbox rail, settle a payout in flight as paid or failed.
 * Each asks for confirmation and reports what happened; a refund or forced failure that waits for a second
 * operator says it was sent for approval.
 */
export function TransactionActions({ tx }: { tx: Types.TransactionDetail }) {
  const api = useApi();
  const can = useCan();
  const client = useQueryClient();
  const dialog = useReasonDialog<Action>();
  const action = dialog.choice;
  const reason = dialog.reason;
  const [notice, setResult] = useNotice();
  const run = useMutation({
    mutationFn: async (a: Action): Promise<string> => {
      if (a.kind === "fail") {
        const res = await api.forceFail(tx.tx_id, reason);
        if (isApprovalRequest(res)) {
          return `Sent for approval: the forced failure of ${tx.tx_id} waits for a second operator in Approvals (${res.approval_id}). Nothing has moved yet.`;
        }
        return `Failed ${tx.tx_id}: the debit went back to partner ${tx.partner_id}'s balance. Status: ${res.status}.`;
      }
      if (a.kind === "refund") {
        const res = await api.refund(tx.tx_id, reason);
        if (isApprovalRequest(res)) {
          return `Sent for approval: the refund of ${tx.tx_id} waits for a second operator in Approvals (${res.approval_id}). Nothing has moved yet.`;
        }
        return `Refunded ${tx.tx_id}: ${formatDecimal(roundDecimal(res.total_usd ?? tx.total_usd ?? "0"))} USD went back to partner ${tx.partner_id}'s balance. Status: ${res.status}.`;
      }
      const res = await api.settle(tx.tx_id, a.outcome, reason);
      return `Sandbox rail settled ${tx.tx_id} as ${res.outcome}${res.delivered ? "" : " (the callback is still being delivered)"}. Status: ${res.status ?? "unknown"}.`;
    },
    onSuccess: async (message) => {
      setResult(message);
      dialog.done();
      await client.invalidateQueries({ queryKey: ["transaction", tx.tx_id] });
      await client.invalidateQueries({ queryKey: ["transactions"] });
    },
  });
  const open = (a: Action) => dialog.openFor(a, run);
  function confirm() {
    if (action && dialog.require(reason ? undefined : REASON_REQUIRED[action.kind])) run.mutate(action);
  }
  const refundable = tx.status === "SUCCESS" && can("POST /admin/transactions/{tx_id}/refund");
  const failable = tx.status === "PROCESSING" && can("POST /admin/transactions/{tx_id}/fail");
  const settleable = tx.status === "PROCESSING" && can("POST /admin/sandbox/transactions/{tx_id}/settle");
  return (
    <>
      {notice}
      {(refundable || failable || settleable) && (
        <div className="toolbar">
          {refundable && (
            <button type="button" className="danger" onClick={() => open({ kind: "refund" })}>
              Refund…
            </button>
          )}
          {failable && (
            <button type="button" className="danger" onClick={() => open({ kind: "fail" })}>
              Force fail…
            </button>
          )}
          {settleable && (
            <>
              <button type="button" onClick={() => open({ kind: "settle", outcome: "SUCCESS" })}>
                Sandbox: settle as paid…
              </button>
              <button type="button" onClick={() => open({ kind: "settle", outcome: "FAILED" })}>
                Sandbox: settle as failed…
              </button>
            </>
          )}
        </div>
      )}
      <ConfirmDialog
        {...dialog.bind(run)}
        title={
          action?.kind === "refund"
            ? `Refund ${tx.tx_id}?`
            : action?.kind === "fail"
              ? `Force the failure of ${tx.tx_id}?`
              : `Settle ${tx.tx_id} as ${action?.kind === "settle" ? action.outcome : ""}?`
        }
        confirmLabel={
          action?.kind === "refund"
            ? `Refund ${formatDecimal(roundDecimal(tx.total_usd ?? "0"))} USD`
            : action?.kind === "fail"
              ? "Force fail"
              : action?.kind === "settle" && action.outcome === "FAILED"
                ? "Settle as failed"
                : "Settle as paid"
        }
        danger={
          action?.kind === "refund" ||
          action?.kind === "fail" ||
          (action?.kind === "settle" && action.outcome === "FAILED")
        }
        onConfirm={confirm}
      >
        {action?.kind === "fail" ? (
          <p>
            Only when the provider confirmed it will not pay: the payout is failed without asking the rail,
            and its debit of {formatDecimal(tx.total_usd)} USD goes back to partner{" "}
            <span className="mono">{tx.partner_id}</span>'s balance; with four-eyes approvals on, only after a
            second operator approves it.
          </p>
        ) : action?.kind === "refund" ? (
          <p>
            The full debit of {formatDecimal(tx.total_usd)} USD (fees included, at full precision) goes back
            to partner <span className="mono">{tx.partner_id}</span>'s balance, once; with four-eyes approvals
            on, only after a second operator approves it. The partner is notified by webhook.
          </p>
        ) : (
          <p>
            The sandbox rail reports the payout as{" "}
            {action?.kind === "settle" && action.outcome === "FAILED"
              ? "failed (the debit is reversed)"
              : "paid"}
            . Only the sandbox rail accepts this.
          </p>
        )}
        <ReasonField
          id="action-reason"
          label={action?.kind === "settle" ? "Reason (optional)" : "Reason"}
          {...dialog.field}
        />
      </ConfirmDialog>
    </>
  );
}
