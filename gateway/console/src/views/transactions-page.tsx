import { TRANSACTION_STATUSES } from "@payouts/client/admin";
import { type FormEvent, useState } from "react";
import { Link, useSearchParams } from "react-router";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import type { Column } from "../components/data-table";
import { DateFilter, SelectFilter } from "../components/filters";
import { formatDecimal, formatTime, StatusBadge, Usd } from "../components/format";
import { type ListSpec, ListTable, usePagedQuery } from "../components/list-table";

const FILTERS = [
  "tx_id",
  "partner_transaction_id",
  "partner_id",
  "status",
  "country",
  "created_from",
  "created_to",
] as const;
type Filter = (typeof FILTERS)[number];
const DATES: readonly Filter[] = ["created_from", "created_to"];

/** datetime-local gives local wall time; the API takes an instant (RFC 3339 with a zone). */
const toInstant = (value: string) => {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date.toISOString() : value || undefined;
};
/** An instant (e.g. from an overview link) as the local wall time a datetime-local field shows. */
const toLocalInput = (value: string) => {
  const date = new Date(value);
  if (!value || Number.isNaN(date.getTime())) return value;
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
};

const COLUMNS: readonly Column<Types.TransactionSummary>[] = [
  {
    header: "Transaction",
    rowHeader: true,
    show: (tx) => (
      <>
        <Link to={`/transactions/${tx.tx_id}`} className="mono">
          {tx.tx_id}
        </Link>
        {tx.partner_transaction_id && <div className="muted">{tx.partner_transaction_id}</div>}
      </>
    ),
  },
  { header: "Status", show: (tx) => <StatusBadge status={tx.status} /> },
  {
    header: "Partner",
    className: "mono",
    show: (tx) => <Link to={`/partners/${tx.partner_id}`}>{tx.partner_id}</Link>,
  },
  { header: "Corridor", show: (tx) => tx.country || "—" },
  {
    header: "Amount",
    className: "num",
    show: (tx) => (
      <>
        {formatDecimal(tx.amount, 0)} {tx.currency}
      </>
    ),
  },
  { header: "Total USD", show: (tx) => <Usd value={tx.total_usd} /> },
  { header: "Created", show: (tx) => formatTime(tx.created_at) },
];

const TRANSACTIONS: ListSpec<Types.TransactionList, Types.TransactionSummary> = {
  label: "Transactions table",
  what: "transactions",
  empty: "No transaction matches these filters.",
  items: (answer) => answer.transactions,
  rowId: "tx_id",
  columns: COLUMNS,
};

/** Search across partners; the filters live in the URL, so a search can be bookmarked or shared. */
export function TransactionsPage() {
  const [params] = useSearchParams();
  // A new URL (a link from the overview, back/forward) starts the form over from it.
  return <TransactionSearch key={params.toString()} />;
}

function TransactionSearch() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ""])) as Record<Filter, string>;
  const [draft, setDraft] = useState(() => {
    const shown = { ...filters };
    for (const f of DATES) shown[f] = toLocalInput(shown[f]);
    return shown;
  });
  const transactions = usePagedQuery(
    ["transactions", params.toString()],
    (page) =>
      api.searchTransactions({
        ...filters,
        created_from: toInstant(filters.created_from),
        created_to: toInstant(filters.created_to),
        ...page,
      }),
    { refetchInterval: 10_000 },
  );
  function submit(event: FormEvent) {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const f of FILTERS) if (draft[f].trim()) next.set(f, draft[f].trim());
    setParams(next);
  }
  const set = (f: Filter, value: string) => setDraft((d) => ({ ...d, [f]: value }));
  const bind = (f: Filter) => ({ value: draft[f], onChange: (value: string) => set(f, value) });
  const text = (f: Filter, label: string, placeholder?: string) => (
    <div className="field">
      <label htmlFor={`tx-${f}`}>{label}</label>
      <input
        id={`tx-${f}`}
        value={draft[f]}
        placeholder={placeholder}
        onChange={(e) => set(f, e.target.value)}
      />
    </div>
  );
  return (
    <>
      <h1>Transactions</h1>
      <form className="grid-form search" onSubmit={submit} aria-label="Search transactions">
        {text("tx_id", "Transaction id", "tx_…")}
        {text("partner_transaction_id", "Partner's transaction id")}
        {text("partner_id", "Partner id", "ptr_…")}
        <SelectFilter id="tx-status" label="Status" options={TRANSACTION_STATUSES} {...bind("status")} />
        {text("country", "Corridor (country)", "BR")}
        <DateFilter
          id="tx-created-from"
          label="Created from"
          type="datetime-local"
          {...bind("created_from")}
        />
        <DateFilter id="tx-created-to" label="Created until" type="datetime-local" {...bind("created_to")} />
        <div className="row-actions">
          <button type="submit" className="primary">
            Search
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(Object.fromEntries(FILTERS.map((f) => [f, ""])) as Record<Filter, string>);
              setParams(new URLSearchParams());
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <ListTable {...transactions} list={TRANSACTIONS} />
    </>
  );
}
