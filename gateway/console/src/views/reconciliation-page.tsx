import { BREAK_TYPES } from "@payouts/ledger/reconciliation-breaks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { ConfirmDialog } from "../components/confirm-dialog";
import { DataTable } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { Field } from "../components/field";
import { formatTime } from "../components/format";
import { PagerControls, useCursorPager } from "../components/pager";
import { QueryState } from "../components/query-state";
import { ResultNotice } from "../components/result-notice";

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

function Runs() {
  const mayRun = useCan()("POST /admin/reconciliation/runs");
  const api = useApi();
  const client = useQueryClient();
  const [date, setDate] = useState(yesterday);
  const [done, setDone] = useState<string>();
  const pager = useCursorPager("runs");
  const query = useQuery({
    queryKey: ["reconciliation-runs", pager.cursor],
    queryFn: () => api.listReconciliationRuns({ cursor: pager.cursor, limit: 10 }),
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
    <section aria-labelledby="runs-heading">
      <h2 id="runs-heading">Runs</h2>
      {mayRun && (
        <form className="inline-form" aria-label="Run a reconciliation" onSubmit={submit}>
          <Field
            id="run-date"
            label="UTC day"
            type="date"
            value={date}
            onChange={(e) => setDate(e.target.value)}
          />
          <button type="submit" className="primary" disabled={start.isPending || !date}>
            Run now
          </button>
          {start.isError && <ErrorMessage error={start.error} prefix="Not run" />}
        </form>
      )}
      {done && <ResultNotice onDismiss={() => setDone(undefined)}>{done}</ResultNotice>}
      <QueryState query={query} what="runs" isEmpty={(d) => d.runs.length === 0} empty="No run yet.">
        {(data) => (
          <>
            <DataTable
              label="Reconciliation runs"
              headers={[
                "Run",
                "Day",
                "Status",
                "Started by",
                "Rail records",
                "Ledger payouts",
                "Found",
                "New",
                "Started",
              ]}
            >
              {data.runs.map((r) => (
                <tr key={r.run_id} data-run-id={r.run_id}>
                  <th scope="row" className="mono">
                    {r.run_id}
                  </th>
                  <td>{r.date}</td>
                  <td>
                    <span className={`badge ${r.status === "FAILED" ? "bad" : "ok"}`}>{r.status}</span>
                    {r.error && <div className="muted wrap">{r.error}</div>}
                  </td>
                  <td>{r.started_by}</td>
                  <td className="num">{r.rail_records}</td>
                  <td className="num">{r.ledger_payouts}</td>
                  <td className="num">{r.breaks_found}</td>
                  <td className="num">{r.breaks_opened}</td>
                  <td>{formatTime(r.started_at)}</td>
                </tr>
              ))}
            </DataTable>
            <PagerControls pager={pager} nextCursor={data.next_cursor} label="Runs" />
          </>
        )}
      </QueryState>
    </section>
  );
}

function Breaks() {
  const api = useApi();
  const [state, setState] = useState("open");
  const [type, setType] = useState("");
  const [date, setDate] = useState("");
  const key = `${state}/${type}/${date}`;
  const pager = useCursorPager(key);
  const [done, setDone] = useState<string>();
  const query = useQuery({
    queryKey: ["reconciliation-breaks", key, pager.cursor],
    queryFn: () => api.listReconciliationBreaks({ state, type, date, cursor: pager.cursor, limit: 25 }),
  });
  return (
    <section aria-labelledby="breaks-heading">
      <h2 id="breaks-heading">Breaks</h2>
      <form className="inline-form" aria-label="Filter breaks" onSubmit={(e) => e.preventDefault()}>
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
        <Field
          id="break-date"
          label="UTC day"
          type="date"
          value={date}
          onChange={(e) => setDate(e.target.value)}
        />
      </form>
      {done && <ResultNotice onDismiss={() => setDone(undefined)}>{done}</ResultNotice>}
      <QueryState
        query={query}
        what="breaks"
        isEmpty={(d) => d.breaks.length === 0}
        empty="No break matches these filters."
      >
        {(data) => (
          <>
            <DataTable
              label="Reconciliation breaks"
              headers={["Type", "Payout or record", "Ledger", "Rail", "Detail", "Day", "Resolution"]}
              actions
            >
              {data.breaks.map((b) => (
                <BreakRow key={b.break_id} item={b} onDone={setDone} />
              ))}
            </DataTable>
            <PagerControls pager={pager} nextCursor={data.next_cursor} label="Breaks" />
          </>
        )}
      </QueryState>
    </section>
  );
}

function BreakRow({ item: b, onDone }: { item: Types.ReconciliationBreak; onDone: (m: string) => void }) {
  const mayResolve = useCan()("POST /admin/reconciliation/breaks/{break_id}/resolve");
  const api = useApi();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState("");
  const [who, setWho] = useState("");
  const [problem, setProblem] = useState<string>();
  const resolve = useMutation({
    mutationFn: () => api.resolveReconciliationBreak(b.break_id, note.trim(), who.trim()),
    onSuccess: async (saved) => {
      setOpen(false);
      onDone(`Break ${saved.break_id} resolved.`);
      await client.invalidateQueries({ queryKey: ["reconciliation-breaks"] });
    },
  });
  const confirm = () => {
    if (!note.trim() || !who.trim()) {
      setProblem("Write what you found and did, and who you are: both are kept on the break.");
      return;
    }
    setProblem(undefined);
    resolve.mutate();
  };
  return (
    <tr data-break-id={b.break_id}>
      <th scope="row">
        <span className={`badge ${b.resolution ? "ok" : "bad"}`}>{b.type}</span>
      </th>
      <td className="mono">{b.key}</td>
      <td>
        {b.ledger_amount ?? "—"} {b.ledger_amount ? b.currency : ""}
        <div className="muted">{b.ledger_status || "—"}</div>
      </td>
      <td>
        {b.rail_amount ?? "—"} {b.rail_amount ? b.currency : ""}
        <div className="muted">{b.rail_status || "—"}</div>
      </td>
      <td className="wrap">{b.detail}</td>
      <td>{b.date}</td>
      <td className="wrap">
        {b.resolution ? (
          <>
            {b.resolution.note}
            <div className="muted">
              {b.resolution.resolved_by}, {formatTime(b.resolution.resolved_at)}
            </div>
          </>
        ) : (
          "Open"
        )}
      </td>
      <td>
        {!b.resolution && mayResolve && (
          <button type="button" onClick={() => setOpen(true)} aria-label={`Resolve ${b.break_id}`}>
            Resolve…
          </button>
        )}
        <ConfirmDialog
          open={open}
          title={`Resolve the ${b.type} of ${b.key}?`}
          confirmLabel="Resolve"
          pending={resolve.isPending}
          error={resolve.error}
          onConfirm={confirm}
          onCancel={() => setOpen(false)}
        >
          <p>
            Resolving records your note; it moves no money. A correction is a refund, a failure or a credit of
            its own.
          </p>
          <Field
            id={`note-${b.break_id}`}
            label="Note"
            value={note}
            maxLength={2000}
            onChange={(e) => setNote(e.target.value)}
            error={problem}
          />
          <Field
            id={`who-${b.break_id}`}
            label="Your name"
            value={who}
            maxLength={200}
            onChange={(e) => setWho(e.target.value)}
          />
        </ConfirmDialog>
      </td>
    </tr>
  );
}
