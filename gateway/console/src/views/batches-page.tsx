import { BATCH_STATUSES } from "@payouts/ledger/batch-statuses";
import { useQuery } from "@tanstack/react-query";
import { Link, useSearchParams } from "react-router";
import { useApi } from "../auth/session-context";
import { DataTable } from "../components/data-table";
import { SelectFilter } from "../components/filters";
import { formatTime, StatusBadge, Usd } from "../components/format";
import { PagerControls, useCursorPager } from "../components/pager";
import { QueryState } from "../components/query-state";

/** Every partner's bulk payouts, newest first, filtered by status (kept in the URL). */
export function BatchesPage() {
  const api = useApi();
  const [params, setParams] = useSearchParams();
  const status = params.get("status") ?? "";
  const pager = useCursorPager(status);
  const query = useQuery({
    queryKey: ["batches", status, pager.cursor],
    queryFn: () => api.listBatches({ status, cursor: pager.cursor, limit: 25 }),
    refetchInterval: 10_000,
  });
  return (
    <>
      <h1>Batches</h1>
      <form className="grid-form search" aria-label="Filter batches" onSubmit={(e) => e.preventDefault()}>
        <SelectFilter
          id="batch-status"
          label="Status"
          value={status}
          options={BATCH_STATUSES}
          onChange={(value) => setParams(value ? { status: value } : {})}
        />
      </form>
      <QueryState
        query={query}
        what="batches"
        isEmpty={(d) => d.batches.length === 0}
        empty="No batch matches this filter."
      >
        {(data) => (
          <>
            <DataTable
              label="Batches table"
              headers={["Batch", "Status", "Partner", "Items", "Invalid", "Total USD", "Created"]}
            >
              {data.batches.map((b) => (
                <tr key={b.batch_id}>
                  <th scope="row">
                    <Link to={`/batches/${b.batch_id}`} className="mono">
                      {b.batch_id}
                    </Link>
                  </th>
                  <td>
                    <StatusBadge status={b.status} />
                  </td>
                  <td className="mono">
                    <Link to={`/partners/${b.partner_id}`}>{b.partner_id}</Link>
                  </td>
                  <td className="num">{b.counts.total}</td>
                  <td className="num">{b.counts.invalid}</td>
                  <td>
                    <Usd value={b.total_usd} />
                  </td>
                  <td>{formatTime(b.created_at)}</td>
                </tr>
              ))}
            </DataTable>
            <PagerControls pager={pager} nextCursor={data.next_cursor} label="Batches" />
          </>
        )}
      </QueryState>
    </>
  );
}
