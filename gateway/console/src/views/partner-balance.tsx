import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { isApprovalRequest, newIdempotencyKey, type Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { ConfirmDialog, useConfirm } from "../components/confirm-dialog";
import type { Column } from "../components/data-table";
import { DraftFields, type DraftInput, useDraft } from "../components/draft-field";
import { formatDecimal, formatTime, roundDecimal, Usd } from "../components/format";
import { type ListSpec, ListTable, usePagedQuery } from "../components/list-table";
import { QueryState } from "../components/query-state";
import { useNotice } from "../components/result-notice";
import { Section } from "../components/section";
import { checkPositiveDecimal } from "../components/validation";

/** The balance, crediting it (confirmed, idempotent), and its history. */
type Credit = { amount: string; reference: string };

const CREDIT_INPUTS: readonly DraftInput<Credit>[] = [
  { field: "amount", label: "Amount (USD)", inputMode: "decimal" },
  {
    field: "reference",
    label: "Reference",
    hint: "Where the money came from, e.g. wire 2026-11-21",
    maxLength: 500,
  },
];

const checkCredit = ({ amount, reference }: Credit) => ({
  amount: checkPositiveDecimal(amount, "The amount", 2),
  reference: reference.trim() ? undefined : "A reference (e.g. the wire's id) is required.",
});

/** The balance, crediting it (confirmed, idempotent), and its history. */
export function PartnerBalance({ partnerId }: { partnerId: string }) {
  const api = useApi();
  const can = useCan();
  const client = useQueryClient();
  const balance = useQuery({
    queryKey: ["balance", partnerId],
    queryFn: () => api.getBalance(partnerId),
    refetchInterval: 10_000,
  });
  const confirm = useConfirm();
  const form = useDraft({ amount: "", reference: "" }, checkCredit);
  const amount = form.draft.amount.trim();
  const reference = form.draft.reference.trim();
  // One key per credit the operator means to make: a retry after a lost answer credits once.
  const [key, setKey] = useState(() => newIdempotencyKey("credit"));
  const [notice, setResult] = useNotice();
  const credit = useMutation({
    mutationFn: () => api.creditBalance(partnerId, amount, reference, key),
    onSuccess: async (res) => {
      setResult(
        isApprovalRequest(res)
          ? `Sent for approval: the credit of ${formatDecimal(amount)} USD (reference “${reference}”) waits for a second operator in Approvals (${res.approval_id}). The balance has not changed.`
          : `Credited ${formatDecimal(amount)} USD (reference “${reference}”). New balance: ${formatDecimal(roundDecimal(res.balance_usd))} USD.`,
      );
      confirm.close();
      form.reset();
      setKey(newIdempotencyKey("credit"));
      await client.invalidateQueries({ queryKey: ["balance", partnerId] });
      await client.invalidateQueries({ queryKey: ["balance-entries", partnerId] });
    },
  });
  return (
    <Section headingId="balance-heading" title="Balance">
      {notice}
      <QueryState query={balance} what="the balance">
        {(b) => (
          <p className="big-figure">
            <Usd value={b.balance_usd} />
          </p>
        )}
      </QueryState>
      {can("POST /admin/partners/{partner_id}/balance/credits") && (
        <button type="button" className="primary" onClick={() => confirm.openFor(credit)}>
          Credit balance…
        </button>
      )}
      <ConfirmDialog
        {...confirm.bind(credit)}
        title="Credit the partner's balance"
        confirmLabel={amount ? `Credit ${formatDecimal(amount)} USD` : "Credit"}
        onConfirm={() => form.check() && credit.mutate()}
      >
        <p>
          This adds money to partner <span className="mono">{partnerId}</span>'s USD balance. It happens once,
          even if you press the button again. A large credit waits for a second operator's approval.
        </p>
        <DraftFields idPrefix="credit" inputs={CREDIT_INPUTS} state={form} />
      </ConfirmDialog>
      <BalanceHistory partnerId={partnerId} />
    </Section>
  );
}

const HISTORY_COLUMNS: readonly Column<Types.BalanceEntry>[] = [
  { header: "When", show: (e) => formatTime(e.created_at) },
  { header: "Kind", show: (e) => e.kind },
  { header: "Amount", show: (e) => <Usd value={e.amount_usd} /> },
  { header: "Balance after", show: (e) => <Usd value={e.balance_after_usd} /> },
  {
    header: "Reference / transaction",
    show: (e) => (e.tx_id ? <Link to={`/transactions/${e.tx_id}`}>{e.tx_id}</Link> : (e.reference ?? "—")),
  },
];

const HISTORY: ListSpec<Types.BalanceEntryList, Types.BalanceEntry> = {
  label: "Balance history table",
  what: "balance history",
  empty: "No balance movements yet.",
  items: (answer) => answer.entries,
  rowId: "entry_id",
  columns: HISTORY_COLUMNS,
};

function BalanceHistory({ partnerId }: { partnerId: string }) {
  const api = useApi();
  const entries = usePagedQuery(
    ["balance-entries", partnerId],
    (page) => api.listBalanceEntries(partnerId, page),
    { limit: 20 },
  );
  return (
    <>
      <h3>Balance history</h3>
      <ListTable {...entries} list={HISTORY} />
    </>
  );
}
