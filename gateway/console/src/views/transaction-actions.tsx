import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { isApprovalRequest, type Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { ConfirmDialog } from "../components/confirm-dialog";
import { Field } from "../components/field";
import { formatDecimal, roundDecimal } from "../components/format";
import { ResultNotice } from "../components/result-notice";

type Action = { kind: "refund" } | { kind: "fail" } | { kind: "settle"; outcome: "SUCCESS" | "FAILED" };

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
  const [action, setAction] = useState<Action>();
  const [reason, setReason] = useState("");
  const [reasonProblem, setReasonProblem] = useState<string>();
  const [result, setResult] = useState<string>();
  const run = useMutation({
    mutationFn: async (a: Action): Promise<string> => {
      if (a.kind === "fail") {
        const res = await api.forceFail(tx.tx_id, reason.trim());
        if (isApprovalRequest(res)) {
          return `Sent for approval: the forced failure of ${tx.tx_id} waits for a second operator in Approvals (${res.approval_id}). Nothing has moved yet.`;
        }
        return `Failed ${tx.tx_id}: the debit went back to partner ${tx.partner_id}'s balance. Status: ${res.status}.`;
      }
      if (a.kind === "refund") {
        const res = await api.refund(tx.tx_id, reason.trim());
        if (isApprovalRequest(res)) {
          return `Sent for approval: the refund of ${tx.tx_id} waits for a second operator in Approvals (${res.approval_id}). Nothing has moved yet.`;
        }
        return `Refunded ${tx.tx_id}: ${formatDecimal(roundDecimal(res.total_usd ?? tx.total_usd ?? "0"))} USD went back to partner ${tx.partner_id}'s balance. Status: ${res.status}.`;
      }
      const res = await api.settle(tx.tx_id, a.outcome, reason.trim());
      return `Sandbox rail settled ${tx.tx_id} as ${res.outcome}${res.delivered ? "" : " (the callback is still being delivered)"}. Status: ${res.status ?? "unknown"}.`;
    },
    onSuccess: async (message) => {
      setResult(message);
      setAction(undefined);
      setReason("");
      await client.invalidateQueries({ queryKey: ["transaction", tx.tx_id] });
      await client.invalidateQueries({ queryKey: ["transactions"] });
    },
  });
  const open = (a: Action) => {
    run.reset();
    setReasonProblem(undefined);
    setAction(a);
  };
  function confirm() {
    if (!action) return;
    if (action.kind === "refund" && !reason.trim()) {
      setReasonProblem("Say why the payout is refunded; the partner and the audit trail see it.");
      return;
    }
    if (action.kind === "fail" && !reason.trim()) {
      setReasonProblem("Say why the payout is failed; the partner sees it in the webhook.");
      return;
    }
    run.mutate(action);
  }
  const refundable = tx.status === "SUCCESS" && can("POST /admin/transactions/{tx_id}/refund");
  const failable = tx.status === "PROCESSING" && can("POST /admin/transactions/{tx_id}/fail");
  const settleable = tx.status === "PROCESSING" && can("POST /admin/sandbox/transactions/{tx_id}/settle");
  return (
    <>
      {result && <ResultNotice onDismiss={() => setResult(undefined)}>{result}</ResultNotice>}
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
        open={action !== undefined}
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
        pending={run.isPending}
        error={run.error}
        onConfirm={confirm}
        onCancel={() => setAction(undefined)}
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
        <Field
          id="action-reason"
          label={action?.kind === "settle" ? "Reason (optional)" : "Reason"}
          value={reason}
          maxLength={500}
          onChange={(e) => setReason(e.target.value)}
          error={reasonProblem}
        />
      </ConfirmDialog>
    </>
  );
}
