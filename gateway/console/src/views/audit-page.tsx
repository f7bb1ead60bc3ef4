import { useMutation, useQuery } from "@tanstack/react-query";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import type { Column } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { DateFilter, FilterForm, SelectFilter, TextFilter, useUrlFilters } from "../components/filters";
import { formatTime } from "../components/format";
import { type ListSpec, ListTable, usePagedQuery } from "../components/list-table";
import { QueryState } from "../components/query-state";
import { Section } from "../components/section";

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
  const records = usePagedQuery(["audit", key], (page) => api.listAuditRecords({ ...filters, ...page }));
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
      <Section headingId="audit-heading" title="Admin actions">
        <FilterForm layout="grid-form" label="Filter audit records">
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
        </FilterForm>
        <p>
          <button type="button" onClick={() => download.mutate()} disabled={download.isPending}>
            Export CSV
          </button>
          {download.isError && <ErrorMessage error={download.error} prefix="Not exported" />}
        </p>
        <ListTable {...records} list={RECORDS} />
      </Section>
    </>
  );
}

function ChainState() {
  const api = useApi();
  const query = useQuery({ queryKey: ["audit-verification"], queryFn: () => api.verifyAuditChain() });
  return (
    <Section headingId="chain-heading" title="Hash chain">
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
    </Section>
  );
}

const COLUMNS: readonly Column<Types.AuditRecord>[] = [
  { header: "#", rowHeader: true, className: "num", show: (r) => r.sequence },
  { header: "When", show: (r) => formatTime(r.at) },
  {
    header: "Actor",
    show: (r) =>
      r.actor ? (
        <>
          {r.actor.name}{" "}
          <span className="muted">
            ({r.actor.kind}, {r.actor.role})
          </span>
        </>
      ) : (
        <span className="muted">anonymous{r.attempted_user ? ` as ${r.attempted_user}` : ""}</span>
      ),
  },
  {
    header: "Request",
    className: "mono",
    show: (r) => (
      <>
        {r.method} {r.route}
      </>
    ),
  },
  {
    header: "Targets",
    className: "mono",
    show: (r) =>
      Object.entries(r.target_ids)
        .map(([k, v]) => `${k}=${v}`)
        .join(" ") || "—",
  },
  {
    header: "Outcome",
    show: (r) => (
      <>
        <span className={`badge ${r.outcome === "succeeded" ? "ok" : "bad"}`}>{r.outcome}</span>{" "}
        {r.status ?? ""} {r.error_code ?? ""}
      </>
    ),
  },
  { header: "Body", className: "mono wrap", show: (r) => r.body ?? "—" },
  {
    header: "Source",
    show: (r) => (
      <>
        {r.source_address}
        <div className="muted mono">{r.request_id}</div>
      </>
    ),
  },
];

const RECORDS: ListSpec<Types.AuditPage, Types.AuditRecord> = {
  label: "Audit records",
  what: "audit records",
  empty: "No audit record matches these filters.",
  items: (answer) => answer.records,
  rowId: "sequence",
  columns: COLUMNS,
};
