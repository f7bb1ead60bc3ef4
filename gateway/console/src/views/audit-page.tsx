import { useMutation, useQuery } from "@tanstack/react-query";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import { DataTable } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { DateFilter, SelectFilter, TextFilter, useUrlFilters } from "../components/filters";
import { formatTime } from "../components/format";
import { PagerControls, useCursorPager } from "../components/pager";
import { QueryState } from "../components/query-state";

const OUTCOMES = ["succeeded", "refused", "failed", "unknown"] as const;

const FILTERS = [
  { name: "actor", label: "Actor", placeholder: "id or name" },
  { name: "route", label: "Route", placeholder: "/admin/partners/:partner_id" },
  { name: "target_id", label: "Target id", placeholder: "ptr_…" },
] as const;

const FILTER_NAMES = [...FILTERS.map((f) => f.name), "outcome", "from", "to"] as const;

/**
 * The audit trail: whether its hash chain checks out, every state-changing admin request newest first with
 * filters (kept in the page's address), and the CSV export of what the filters select.
 */
export function AuditPage() {
  const api = useApi();
  const { filters, key, bind } = useUrlFilters(FILTER_NAMES);
  const pager = useCursorPager(key);
  const query = useQuery({
    queryKey: ["audit", key, pager.cursor],
    queryFn: () => api.listAuditRecords({ ...filters, cursor: pager.cursor, limit: 25 }),
  });
  const download = useMutation({
    mutationFn: () => api.exportAuditCsv(filters),
    onSuccess: (blob) => {
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = "audit.csv";
      link.click();
      URL.revokeObjectURL(url);
    },
  });
  return (
    <>
      <h1>Audit</h1>
      <ChainState />
      <section aria-labelledby="audit-heading">
        <h2 id="audit-heading">Admin actions</h2>
        <form className="grid-form" aria-label="Filter audit records" onSubmit={(e) => e.preventDefault()}>
          {FILTERS.map((f) => (
            <TextFilter
              key={f.name}
              id={`audit-${f.name}`}
              label={f.label}
              placeholder={f.placeholder}
              {...bind(f.name)}
            />
          ))}
          <SelectFilter id="audit-outcome" label="Outcome" options={OUTCOMES} {...bind("outcome")} />
          <DateFilter id="audit-from" label="From (UTC day)" {...bind("from")} />
          <DateFilter id="audit-to" label="Before (UTC day)" {...bind("to")} />
        </form>
        <p>
          <button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
            Export CSV
          </button>
          {download.isError && <ErrorMessage error={download.error} prefix="Not exported" />}
        </p>
        <QueryState
          query={query}
          what="audit records"
          isEmpty={(d) => d.records.length === 0}
          empty="No audit record matches these filters."
        >
          {(data) => (
            <>
              <AuditTable records={data.records} />
              <PagerControls pager={pager} nextCursor={data.next_cursor} label="Audit records" />
            </>
          )}
        </QueryState>
      </section>
    </>
  );
}

function ChainState() {
  const api = useApi();
  const query = useQuery({ queryKey: ["audit-verification"], queryFn: () => api.verifyAuditChain() });
  return (
    <section aria-labelledby="chain-heading">
      <h2 id="chain-heading">Hash chain</h2>
      <QueryState query={query} what="the chain check">
        {(v) =>
          v.ok ? (
            <p role="status" data-chain="ok">
              <span className="badge ok">Chain OK</span> up to record {v.verified_through}.
            </p>
          ) : (
            <p role="alert" data-chain="broken">
              <span className="badge bad">Chain broken</span> at record {v.broken_at}: {v.problem} (intact up
              to {v.verified_through}).
            </p>
          )
        }
      </QueryState>
      <button type="button" onClick={() => query.refetch()} disabled={query.isFetching}>
        Check again
      </button>
    </section>
  );
}

function AuditTable({ records }: { records: readonly Types.AuditRecord[] }) {
  return (
    <DataTable
      label="Audit records"
      headers={["#", "When", "Actor", "Request", "Targets", "Outcome", "Body", "Source"]}
    >
      {records.map((r) => (
        <tr key={r.sequence} data-sequence={r.sequence}>
          <th scope="row" className="num">
            {r.sequence}
          </th>
          <td>{formatTime(r.at)}</td>
          <td>
            {r.actor ? (
              <>
                {r.actor.name}{" "}
                <span className="muted">
                  ({r.actor.kind}, {r.actor.role})
                </span>
              </>
            ) : (
              <span className="muted">anonymous{r.attempted_user ? ` as ${r.attempted_user}` : ""}</span>
            )}
          </td>
          <td className="mono">
            {r.method} {r.route}
          </td>
          <td className="mono">
            {Object.entries(r.target_ids)
              .map(([k, v]) => `${k}=${v}`)
              .join(" ") || "—"}
          </td>
          <td>
            <span className={`badge ${r.outcome === "succeeded" ? "ok" : "bad"}`}>{r.outcome}</span>{" "}
            {r.status ?? ""} {r.error_code ?? ""}
          </td>
          <td className="mono wrap">{r.body ?? "—"}</td>
          <td>
            {r.source_address}
            <div className="muted mono">{r.request_id}</div>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}
