import { BATCH_STATUSES } from "@payouts/ledger/batch-statuses";
import { Link, useSearchParams } from "react-router";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import type { Column } from "../components/data-table";
import { StatusFilter } from "../components/filters";
import { formatTime, StatusBadge, Usd } from "../components/format";
import { type ListSpec, ListTable, usePagedQuery } from "../components/list-table";

const COLUMNS: readonly Column<Types.Batch>[] = [
  {
    header: "Batch",
    rowHeader: true,
    show: (b) => (
      <Link to={`/batches/${b.batch_id}`} className="mono">
        {b.batch_id}
      </Link>
    ),
  },
  { header: "Status", show: (b) => <StatusBadge status={b.status} /> },
  {
    header: "Partner",
    className: "mono",
    show: (b) => <Link to={`/partners/${b.partner_id}`}>{b.partner_id}</Link>,
  },
  { header: "Items", className: "num", show: (b) => b.counts.total },
  { header: "Invalid", className: "num", show: (b) => b.counts.invalid },
  { header: "Total USD", show: (b) => <Usd value={b.total_usd} /> },
  { header: "Created", show: (b) => formatTime(b.created_at) },
];

const BATCHES: ListSpec<Types.BatchList, Types.Batch> = {
  label: "Batches table",
  what: "batches",
  empty: "No batch matches this filter.",
  items: (answer) => answer.batches,
  rowId: "batch_id",
  columns: COLUMNS,
};

/** Every partner's bulk payouts, newest first, filtered by status (kept in the URL). */
export function BatchesPage() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const status = params.get("status") ?? "";
  const batches = usePagedQuery(["batches", status], (page) => api.listBatches({ status, ...page }), {
    refetchInterval: 10_000,
  });
  return (
    <>
      <h1>Batches</h1>
      <StatusFilter
        name="Filter batches"
        id="batch-status"
        value={status}
        options={BATCH_STATUSES}
        onChange={(value) => setParams(value ? { status: value } : {})}
      />
      <ListTable {...batches} list={BATCHES} />
    </>
  );
}
