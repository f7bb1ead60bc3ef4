import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { isApprovalRequest, newIdempotencyKey, type Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { ConfirmDialog } from "../components/confirm-dialog";
import type { Column } from "../components/data-table";
import { Field } from "../components/field";
import { formatDecimal, formatTime, roundDecimal, Usd } from "../components/format";
import { ListTable, usePagedQuery } from "../components/list-table";
import { QueryState } from "../components/query-state";
import { ResultNotice } from "../components/result-notice";
import { checkPositiveDecimal } from "../components/validation";

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
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState("");
  const [reference, setReference] = useState("");
  const [problems, setProblems] = useState<{ amount?: string | undefined; reference?: string | undefined }>(
    {},
  );
  // One key per credit the operator means to make: a retry after a lost answer credits once.
  const [key, setKey] = useState(() => newIdempotencyKey("credit"));
  const [result, setResult] = useState<string>();
  const credit = useMutation({
    mutationFn: () => api.creditBalance(partnerId, amount.trim(), reference.trim(), key),
    onSuccess: async (res) => {
      setResult(
        isApprovalRequest(res)
          ? `Sent for approval: the credit of ${formatDecimal(amount.trim())} USD (reference “${reference.trim()}”) waits for a second operator in Approvals (${res.approval_id}). The balance has not changed.`
          : `Credited ${formatDecimal(amount.trim())} USD (reference “${reference.trim()}”). New balance: ${formatDecimal(roundDecimal(res.balance_usd))} USD.`,
      );
      setOpen(false);
      setAmount("");
      setReference("");
      setKey(newIdempotencyKey("credit"));
      await client.invalidateQueries({ queryKey: ["balance", partnerId] });
      await client.invalidateQueries({ queryKey: ["balance-entries", partnerId] });
    },
  });
  function confirm() {
    const found = {
      amount: checkPositiveDecimal(amount, "The amount", 2),
      reference: reference.trim() ? undefined : "A reference (e.g. the wire's id) is required.",
    };
    setProblems(found);
    if (!found.amount && !found.reference) credit.mutate();
  }
  return (
    <section aria-labelledby="balance-heading">
      <h2 id="balance-heading">Balance</h2>
      {result && <ResultNotice onDismiss={() => setResult(undefined)}>{result}</ResultNotice>}
      <QueryState query={balance} what="the balance">
        {(b) => (
          <p className="big-figure">
            <Usd value={b.balance_usd} />
          </p>
        )}
      </QueryState>
      {can("POST /admin/partners/{partner_id}/balance/credits") && (
        <button
          type="button"
          className="primary"
          onClick={() => {
            credit.reset();
            setOpen(true);
          }}
        >
          Credit balance…
        </button>
      )}
      <ConfirmDialog
        open={open}
        title="Credit the partner's balance"
        confirmLabel={amount.trim() ? `Credit ${formatDecimal(amount.trim())} USD` : "Credit"}
        pending={credit.isPending}
        error={credit.error}
        onConfirm={confirm}
        onCancel={() => setOpen(false)}
      >
        <p>
          This adds money to partner <span className="mono">{partnerId}</span>'s USD balance. It happens once,
          even if you press the button again. A large credit waits for a second operator's approval.
        </p>
        <Field
          id="credit-amount"
          label="Amount (USD)"
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={problems.amount}
        />
        <Field
          id="credit-reference"
          label="Reference"
          hint="Where the money came from, e.g. wire 2026-11-21"
          value={reference}
          maxLength={500}
          onChange={(e) => setReference(e.target.value)}
          error={problems.reference}
        />
      </ConfirmDialog>
      <BalanceHistory partnerId={partnerId} />
    </section>
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
      <ListTable
        {...entries}
        what="balance history"
        empty="No balance movements yet."
        items={(d) => d.entries}
        pagerLabel="Balance history"
        label="Balance history table"
        columns={HISTORY_COLUMNS}
        rowKey={(e) => e.entry_id}
      />
    </>
  );
}
