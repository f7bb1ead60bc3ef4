import { BREAK_TYPES } from "@payouts/ledger/reconciliation-breaks";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { ConfirmDialog, useConfirm } from "../components/confirm-dialog";
import type { Column } from "../components/data-table";
import { DraftFields, type DraftInput, useDraft } from "../components/draft-field";
import { ErrorMessage } from "../components/error-message";
import { DateFilter, FilterForm } from "../components/filters";
import { formatTime } from "../components/format";
import { type ListSpec, ListTable, usePagedQuery } from "../components/list-table";
import { useNotice } from "../components/result-notice";
import { Section } from "../components/section";

/** Yesterday in UTC: the last closed settlement day. */
const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

/**
 * Reconciliation against the rail: run a UTC day now, the runs, and the breaks they opened with a Resolve
 * action (a note and who, written once; it moves no money).
 */
export function ReconciliationPage() {
  return (
    <>
      <h1>Reconciliation</h1>
      <Runs />
      <Breaks />
    </>
  );
}

const RUN_COLUMNS: readonly Column<Types.ReconciliationRun>[] = [
  { header: "Run", rowHeader: true, className: "mono", show: (r) => r.run_id },
  { header: "Day", show: (r) => r.date },
  {
    header: "Status",
    show: (r) => (
      <>
        <span className={`badge ${r.status === "FAILED" ? "bad" : "ok"}`}>{r.status}</span>
        {r.error && <div className="muted wrap">{r.error}</div>}
      </>
    ),
  },
  { header: "Started by", show: (r) => r.started_by },
  { header: "Rail records", className: "num", show: (r) => r.rail_records },
  { header: "Ledger payouts", className: "num", show: (r) => r.ledger_payouts },
  { header: "Found", className: "num", show: (r) => r.breaks_found },
  { header: "New", className: "num", show: (r) => r.breaks_opened },
  { header: "Started", show: (r) => formatTime(r.started_at) },
];

const RUNS: ListSpec<Types.ReconciliationRunList, Types.ReconciliationRun> = {
  label: "Reconciliation runs",
  what: "runs",
  empty: "No run yet.",
  items: (answer) => answer.runs,
  rowId: "run_id",
  columns: RUN_COLUMNS,
};

function Runs() {
  const mayRun = useCan()("POST /admin/reconciliation/runs");
  const api = useApi();
  const client = useQueryClient();
  const [date, setDate] = useState(yesterday);
  const [notice, setDone] = useNotice();
  const runs = usePagedQuery(["reconciliation-runs"], (page) => api.listReconciliationRuns(page), {
    limit: 10,
  });
  const start = useMutation({
    mutationFn: () => api.startReconciliationRun(date),
    onSuccess: async (run) => {
      setDone(
        `Run of ${run.date}: ${run.breaks_found} breaks found, ${run.breaks_opened} new (${run.rail_records} rail records, ${run.ledger_payouts} ledger payouts).`,
      );
      await client.invalidateQueries({ queryKey: ["reconciliation-runs"] });
      await client.invalidateQueries({ queryKey: ["reconciliation-breaks"] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    start.mutate();
  };
  return (
    <Section headingId="runs-heading" title="Runs">
      {mayRun && (
        <form className="inline-form" aria-label="Run a reconciliation" onSubmit={submit}>
          <DateFilter id="run-date" label="UTC day" value={date} onChange={setDate} />
          <button type="submit" className="primary" disabled={start.isPending || !date}>
            Run now
          </button>
          {start.isError && <ErrorMessage error={start.error} prefix="Not run" />}
        </form>
      )}
      {notice}
      <ListTable {...runs} list={RUNS} />
    </Section>
  );
}

const BREAK_COLUMNS: readonly Column<Types.ReconciliationBreak>[] = [
  {
    header: "Type",
    rowHeader: true,
    show: (b) => <span className={`badge ${b.resolution ? "ok" : "bad"}`}>{b.type}</span>,
  },
  { header: "Payout or record", className: "mono", show: (b) => b.key },
  {
    header: "Ledger",
    show: (b) => <Side amount={b.ledger_amount} currency={b.currency} status={b.ledger_status} />,
  },
  {
    header: "Rail",
    show: (b) => <Side amount={b.rail_amount} currency={b.currency} status={b.rail_status} />,
  },
  { header: "Detail", className: "wrap", show: (b) => b.detail },
  { header: "Day", show: (b) => b.date },
  {
    header: "Resolution",
    className: "wrap",
    show: (b) =>
      b.resolution ? (
        <>
          {b.resolution.note}
          <div className="muted">
            {b.resolution.resolved_by}, {formatTime(b.resolution.resolved_at)}
          </div>
        </>
      ) : (
        "Open"
      ),
  },
];

/** One side of a break (the ledger's or the rail's): its amount and status, or dashes when it has none. */
function Side(props: {
  amount: string | null | undefined;
  currency: string;
  status: string | null | undefined;
}) {
  return (
    <>
      {props.amount ?? "—"} {props.amount ? props.currency : ""}
      <div className="muted">{props.status || "—"}</div>
    </>
  );
}

const BREAKS: ListSpec<Types.ReconciliationBreakList, Types.ReconciliationBreak> = {
  label: "Reconciliation breaks",
  what: "breaks",
  empty: "No break matches these filters.",
  items: (answer) => answer.breaks,
  rowId: "break_id",
  columns: BREAK_COLUMNS,
};

function Breaks() {
  const api = useApi();
  const [state, setState] = useState("open");
  const [type, setType] = useState("");
  const [date, setDate] = useState("");
  const [notice, setDone] = useNotice();
  const breaks = usePagedQuery(["reconciliation-breaks", `${state}/${type}/${date}`], (page) =>
    api.listReconciliationBreaks({ state, type, date, ...page }),
  );
  return (
    <Section headingId="breaks-heading" title="Breaks">
      <FilterForm layout="inline-form" label="Filter breaks">
        <label>
          State{" "}
          <select value={state} onChange={(e) => setState(e.target.value)}>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
            <option value="">All</option>
          </select>
        </label>
        <label>
          Type{" "}
          <select value={type} onChange={(e) => setType(e.target.value)}>
            <option value="">All</option>
            {BREAK_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <DateFilter id="break-date" label="UTC day" value={date} onChange={setDate} />
      </FilterForm>
      {notice}
      <ListTable {...breaks} list={BREAKS} actions={(b) => <Resolve item={b} onDone={setDone} />} />
    </Section>
  );
}

type Resolution = { note: string; who: string };

const RESOLUTION_INPUTS: readonly DraftInput<Resolution>[] = [
  { field: "note", label: "Note", maxLength: 2000 },
  { field: "who", label: "Your name", maxLength: 200 },
];

/** Both are required; the one message stands at the note. */
const checkResolution = ({ note, who }: Resolution) => ({
  note:
    note.trim() && who.trim()
      ? undefined
      : "Write what you found and did, and who you are: both are kept on the break.",
});

/** Resolving a break after confirmation, with a note and who resolved it. */
function Resolve({ item: b, onDone }: { item: Types.ReconciliationBreak; onDone: (m: string) => void }) {
  const mayResolve = useCan()("POST /admin/reconciliation/breaks/{break_id}/resolve");
  const api = useApi();
  const client = useQueryClient();
  const confirm = useConfirm();
  const form = useDraft({ note: "", who: "" }, checkResolution);
  const resolve = useMutation({
    mutationFn: () =>
      api.resolveReconciliationBreak(b.break_id, form.draft.note.trim(), form.draft.who.trim()),
    onSuccess: async (saved) => {
      confirm.close();
      onDone(`Break ${saved.break_id} resolved.`);
      await client.invalidateQueries({ queryKey: ["reconciliation-breaks"] });
    },
  });
  return (
    <>
      {!b.resolution && mayResolve && (
        <button type="button" onClick={confirm.show} aria-label={`Resolve ${b.break_id}`}>
          Resolve…
        </button>
      )}
      <ConfirmDialog
        {...confirm.bind(resolve)}
        title={`Resolve the ${b.type} of ${b.key}?`}
        confirmLabel="Resolve"
        onConfirm={() => form.check() && resolve.mutate()}
      >
        <p>
          Resolving records your note; it moves no money. A correction is a refund, a failure or a credit of
          its own.
        </p>
        <DraftFields idPrefix={`resolve-${b.break_id}`} inputs={RESOLUTION_INPUTS} state={form} />
      </ConfirmDialog>
    </>
  );
}
