import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { ConfirmDialog, ReasonField, useReasonDialog } from "../components/confirm-dialog";
import type { Column } from "../components/data-table";
import { FilterForm } from "../components/filters";
import { formatDecimal, formatTime, StatusBadge } from "../components/format";
import { type ListSpec, ListTable } from "../components/list-table";
import { useNotice } from "../components/result-notice";

const STATUSES = ["PENDING", "EXECUTING", "APPROVED", "REJECTED", "EXPIRED"] as const;

const ACTION_LABEL: Record<Types.ApprovalRequest["action"], string> = {
  BALANCE_CREDIT: "Balance credit",
  REFUND: "Refund",
  FORCE_FAIL: "Forced failure",
};

/** Why the signed-in caller may not approve a request, in words. */
const REFUSAL_TEXT: Record<NonNullable<Types.ApprovalRequest["approval_refusal"]>, string> = {
  APPROVAL_BY_REQUESTER: "You requested this: another operator must approve it.",
  APPROVAL_BY_MACHINE: "A machine credential cannot approve: sign in as an operator.",
  APPROVAL_ROLE_REQUIRED: "Your role cannot approve money actions (finance or above).",
  APPROVAL_EXPIRED: "Expired.",
  APPROVAL_ALREADY_DECIDED: "Already decided.",
};

/**
 * The four-eyes inbox: money actions that wait for a second operator (a large credit, a refund, a forced
 * failure), who asked, and approve or reject with a confirmation. The API says whether the signed-in
 * operator may approve each one; their own requests cannot be approved here.
 */
export function ApprovalsPage() {
  const api = useApi();
  const [status, setStatus] = useState<Types.ApprovalStatus | "">("PENDING");
  const [notice, setDone] = useNotice();
  const query = useQuery({
    queryKey: ["approvals", status],
    queryFn: () => api.listApprovals(status),
    refetchInterval: 10_000,
  });
  return (
    <>
      <h1>Approvals</h1>
      <p className="muted">
        Credits above the threshold, refunds and forced failures wait here until a second operator approves
        them. Nothing moves until then.
      </p>
      <FilterForm layout="inline-form" label="Filter approval requests">
        <label>
          Status{" "}
          <select value={status} onChange={(e) => setStatus(e.target.value as Types.ApprovalStatus | "")}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
            <option value="">All</option>
          </select>
        </label>
      </FilterForm>
      {notice}
      <ListTable query={query} list={APPROVALS} actions={(a) => <Decide item={a} onDone={setDone} />} />
    </>
  );
}

const COLUMNS: readonly Column<Types.ApprovalRequest>[] = [
  { header: "Request", rowHeader: true, className: "mono", show: (a) => a.approval_id },
  { header: "Action", show: (a) => ACTION_LABEL[a.action] },
  { header: "Target", show: (a) => <Target item={a} /> },
  {
    header: "Amount (USD)",
    className: "num",
    show: (a) => (a.amount_usd === null ? "—" : formatDecimal(a.amount_usd)),
  },
  {
    header: "Requested by",
    show: (a) => (
      <>
        {a.requested_by.name} <span className="muted">({a.requested_by.kind})</span>
      </>
    ),
  },
  {
    header: "Status",
    show: (a) => (
      <>
        <StatusBadge status={a.status} />
        {a.decided_by && <div className="muted">by {a.decided_by.name}</div>}
        {a.outcome && !a.outcome.succeeded && <div className="muted wrap">{a.outcome.code}</div>}
      </>
    ),
  },
  { header: "Expires", show: (a) => formatTime(a.expires_at) },
];

const APPROVALS: ListSpec<Types.ApprovalList, Types.ApprovalRequest> = {
  label: "Approval requests",
  what: "approval requests",
  empty: "No approval request with this status.",
  items: (answer) => answer.approvals,
  rowId: "approval_id",
  columns: COLUMNS,
};

type Decision = "approve" | "reject";

/** Approve or reject one request, each after confirmation. */
function Decide({ item: a, onDone }: { item: Types.ApprovalRequest; onDone: (m: string) => void }) {
  const can = useCan();
  const api = useApi();
  const client = useQueryClient();
  const dialog = useReasonDialog<Decision>();
  const decision = dialog.choice;
  const decide = useMutation({
    mutationFn: (d: Decision) =>
      d === "approve" ? api.approve(a.approval_id) : api.reject(a.approval_id, dialog.reason),
    onSuccess: async (res) => {
      onDone(describeDecision(res));
      dialog.done();
      await client.invalidateQueries({ queryKey: ["approvals"] });
      if (res.target.partner_id)
        await client.invalidateQueries({ queryKey: ["balance", res.target.partner_id] });
    },
  });
  const open = (d: Decision) => dialog.openFor(d, decide);
  function confirm() {
    if (!decision) return;
    const missing = decision === "reject" && !dialog.reason;
    if (dialog.require(missing ? "Say why it is rejected; the requester sees it." : undefined)) {
      decide.mutate(decision);
    }
  }
  const pending = a.status === "PENDING";
  return (
    <>
      {pending && (
        <div className="toolbar">
          {can("POST /admin/approvals/{approval_id}/approve") && (
            <button
              type="button"
              className="primary"
              disabled={a.approval_refusal !== null}
              aria-describedby={a.approval_refusal ? `why-${a.approval_id}` : undefined}
              onClick={() => open("approve")}
            >
              Approve…
            </button>
          )}
          {can("POST /admin/approvals/{approval_id}/reject") && (
            <button type="button" onClick={() => open("reject")}>
              Reject…
            </button>
          )}
        </div>
      )}
      {pending && a.approval_refusal && (
        <div id={`why-${a.approval_id}`} className="muted wrap">
          {REFUSAL_TEXT[a.approval_refusal]}
        </div>
      )}
      <ConfirmDialog
        {...dialog.bind(decide)}
        title={`${decision === "approve" ? "Approve" : "Reject"} ${ACTION_LABEL[a.action].toLowerCase()} ${a.approval_id}?`}
        confirmLabel={decision === "approve" ? "Approve and carry out" : "Reject"}
        danger={decision === "approve"}
        onConfirm={confirm}
      >
        <p>
          {describeRequest(a)} Requested by {a.requested_by.name} at {formatTime(a.created_at)}.
        </p>
        {decision === "approve" ? (
          <p>Approving carries it out now, once.</p>
        ) : (
          <ReasonField id={`reject-reason-${a.approval_id}`} {...dialog.field} />
        )}
      </ConfirmDialog>
    </>
  );
}

function Target({ item: a }: { item: Types.ApprovalRequest }) {
  return (
    <>
      {a.target.tx_id && (
        <div>
          <Link to={`/transactions/${a.target.tx_id}`}>{a.target.tx_id}</Link>
        </div>
      )}
      {a.target.partner_id && <Link to={`/partners/${a.target.partner_id}`}>{a.target.partner_id}</Link>}
    </>
  );
}

function describeRequest(a: Types.ApprovalRequest): string {
  const amount = a.amount_usd === null ? "" : ` of ${formatDecimal(a.amount_usd)} USD`;
  switch (a.action) {
    case "BALANCE_CREDIT":
      return `Credit${amount} to partner ${a.target.partner_id} (reference “${String(a.request.reference)}”).`;
    case "REFUND":
      return `Refund${amount} of ${a.target.tx_id} to partner ${a.target.partner_id}.`;
    case "FORCE_FAIL":
      return `Fail ${a.target.tx_id} without asking the rail, reversing${amount} to partner ${a.target.partner_id}.`;
  }
}

function describeDecision(a: Types.ApprovalRequest): string {
  if (a.status === "REJECTED") return `Rejected ${a.approval_id}: nothing was done.`;
  if (a.outcome?.succeeded) return `Approved ${a.approval_id}: ${describeRequest(a)} Done.`;
  if (a.outcome)
    return `Approved ${a.approval_id}, but the ledger refused it: ${a.outcome.code} — ${a.outcome.message}`;
  return `Approved ${a.approval_id}; it is being carried out (status ${a.status}).`;
}
