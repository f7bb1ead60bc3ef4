import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { useApi } from "../auth/session-context";
import { formatDecimal, formatTime, StatusBadge } from "../components/format";
import { PagerControls, useCursorPager } from "../components/pager";
import { QueryState } from "../components/query-state";
import { TableScroll } from "../components/table-scroll";

export const STATUSES = ["PENDING", "PROCESSING", "SUCCESS", "FAILED", "REFUNDED", "EXPIRED"];
const FILTERS = ["tx_id", "partner_transaction_id", "partner_id", "status", "country", "from", "to"] as const;
type Filter = (typeof FILTERS)[number];

/** datetime-local gives local wall time; the API takes an instant. */
const toInstant = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** Search across partners; the filters live in the URL, so a search can be bookmarked or shared. */
export function TransactionsPage() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(FILTERS.map((f) => [f, params.get(f) ?? ""])) as Record<Filter, string>;
  const [draft, setDraft] = useState(filters);
  const searchKey = params.toString();
  const pager = useCursorPager(searchKey);
  const query = useQuery({
    queryKey: ["transactions", searchKey, pager.cursor],
    queryFn: () =>
      api.searchTransactions({
        ...filters,
        from: toInstant(filters.from),
        to: toInstant(filters.to),
        cursor: pager.cursor,
        limit: 25,
      }),
    refetchInterval: 10_000,
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const f of FILTERS) if (draft[f].trim()) next.set(f, draft[f].trim());
    setParams(next);
  }
  const set = (f: Filter, value: string) => setDraft((d) => ({ ...d, [f]: value }));
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
        <div className="field">
          <label htmlFor="tx-status">Status</label>
          <select id="tx-status" value={draft.status} onChange={(e) => set("status", e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        {text("country", "Corridor (country)", "BR")}
        <div className="field">
          <label htmlFor="tx-from">Created from</label>
          <input
            id="tx-from"
            type="datetime-local"
            value={draft.from}
            onChange={(e) => set("from", e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="tx-to">Created before</label>
          <input
            id="tx-to"
            type="datetime-local"
            value={draft.to}
            onChange={(e) => set("to", e.target.value)}
          />
        </div>
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
      <QueryState
        query={query}
        what="transactions"
        isEmpty={(d) => d.transactions.length === 0}
        empty="No transaction matches these filters."
      >
        {(data) => (
          <>
            <TableScroll label="Transactions table">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Transaction</th>
                    <th scope="col">Status</th>
                    <th scope="col">Partner</th>
                    <th scope="col">Corridor</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Total USD</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {data.transactions.map((tx) => (
                    <tr key={tx.tx_id}>
                      <th scope="row">
                        <Link to={`/transactions/${tx.tx_id}`} className="mono">
                          {tx.tx_id}
                        </Link>
                        {tx.partner_transaction_id && (
                          <div className="muted">{tx.partner_transaction_id}</div>
                        )}
                      </th>
                      <td>
                        <StatusBadge status={tx.status} />
                      </td>
                      <td className="mono">
                        <Link to={`/partners/${tx.partner_id}`}>{tx.partner_id}</Link>
                      </td>
                      <td>{tx.country ?? "—"}</td>
                      <td className="num">
                        {formatDecimal(tx.amount, 0)} {tx.currency}
                      </td>
                      <td className="num">{formatDecimal(tx.total_usd)}</td>
                      <td>{formatTime(tx.created_at ?? tx.updated_at)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
            <PagerControls pager={pager} nextCursor={data.next_cursor} label="Transactions" />
          </>
        )}
      </QueryState>
    </>
  );
}
