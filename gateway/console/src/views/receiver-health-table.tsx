import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { DataTable } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { formatAge, formatTime } from "../components/format";
import { PagerControls, useCursorPager } from "../components/pager";
import { QueryState } from "../components/query-state";
import { ResultNotice } from "../components/result-notice";

const CIRCUIT_LABEL: Record<Types.ReceiverHealth["circuit_state"], string> = {
  closed: "Closed",
  open: "Open",
  half_open: "Half-open (probing)",
};

/**
 * Each receiver's circuit breaker, operator pause and backlog, refreshed every 5 s, with Pause and Resume.
 * A paused receiver's deliveries wait (pending, no attempt used); resuming sends them at once, in order.
 */
export function ReceiverHealthSection() {
  const api = useApi();
  const [withBacklog, setWithBacklog] = useState(false);
  const [circuitOpen, setCircuitOpen] = useState(false);
  const key = `${withBacklog}/${circuitOpen}`;
  const pager = useCursorPager(key);
  const [done, setDone] = useState<string>();
  const query = useQuery({
    queryKey: ["receiver-health", key, pager.cursor],
    queryFn: () =>
      api.listReceiverHealth({
        ...(withBacklog ? { with_backlog: "true" } : {}),
        ...(circuitOpen ? { circuit_open: "true" } : {}),
        cursor: pager.cursor,
        limit: 25,
      }),
    refetchInterval: 5_000,
  });
  return (
    <section aria-labelledby="receiver-health-heading">
      <h2 id="receiver-health-heading">Receiver health</h2>
      <form className="inline-form" aria-label="Filter receivers" onSubmit={(e) => e.preventDefault()}>
        <label>
          <input type="checkbox" checked={withBacklog} onChange={(e) => setWithBacklog(e.target.checked)} />{" "}
          Only with a backlog
        </label>
        <label>
          <input type="checkbox" checked={circuitOpen} onChange={(e) => setCircuitOpen(e.target.checked)} />{" "}
          Only open circuits
        </label>
      </form>
      {done && <ResultNotice onDismiss={() => setDone(undefined)}>{done}</ResultNotice>}
      <QueryState
        query={query}
        what="receiver health"
        isEmpty={(d) => d.receivers.length === 0}
        empty="No receiver matches these filters."
      >
        {(data) => (
          <>
            <DataTable
              label="Receiver health table"
              headers={["Receiver", "Partner", "Circuit", "Paused", "Backlog", "Oldest pending"]}
              actions
            >
              {data.receivers.map((r) => (
                <ReceiverRow key={r.config_id} receiver={r} onDone={setDone} />
              ))}
            </DataTable>
            <PagerControls pager={pager} nextCursor={data.next_cursor} label="Receivers" />
          </>
        )}
      </QueryState>
    </section>
  );
}

function ReceiverRow({
  receiver: r,
  onDone,
}: {
  receiver: Types.ReceiverHealth;
  onDone: (m: string) => void;
}) {
  const api = useApi();
  const client = useQueryClient();
  const mayToggle = useCan()(
    r.paused
      ? "POST /admin/webhook-receivers/{config_id}/resume"
      : "POST /admin/webhook-receivers/{config_id}/pause",
  );
  const toggle = useMutation({
    mutationFn: () => api.setReceiverPaused(r.config_id, !r.paused),
    onSuccess: async (saved) => {
      onDone(
        saved.paused
          ? `Receiver ${saved.config_id} paused: its deliveries wait until it is resumed.`
          : `Receiver ${saved.config_id} resumed: its waiting deliveries go out now.`,
      );
      await client.invalidateQueries({ queryKey: ["receiver-health"] });
    },
  });
  return (
    <tr data-config-id={r.config_id}>
      <th scope="row">
        <span className="mono">{r.config_id}</span>
        <div className="muted wrap">{r.url}</div>
        {!r.enabled && <div className="muted">Disabled</div>}
      </th>
      <td className="mono">{r.partner_id}</td>
      <td>
        <span className={`badge ${r.circuit_state === "closed" ? "ok" : "bad"}`}>
          {CIRCUIT_LABEL[r.circuit_state]}
        </span>
        {r.circuit_failures > 0 && <div className="muted">{r.circuit_failures} failures in a row</div>}
        {r.circuit_retry_at && <div className="muted">next probe {formatTime(r.circuit_retry_at)}</div>}
      </td>
      <td>{r.paused ? "Paused" : "No"}</td>
      <td className="num">
        {r.pending}
        {r.delivering > 0 && <div className="muted">{r.delivering} in flight</div>}
      </td>
      <td>{r.pending > 0 ? formatAge(r.oldest_pending_age_seconds) : "—"}</td>
      <td>
        {mayToggle && (
          <button
            type="button"
            className={r.paused ? "primary" : "danger"}
            onClick={() => toggle.mutate()}
            disabled={toggle.isPending}
            aria-label={`${r.paused ? "Resume" : "Pause"} ${r.config_id}`}
          >
            {r.paused ? "Resume" : "Pause"}
          </button>
        )}
        {toggle.isError && <ErrorMessage error={toggle.error} prefix="Not changed" />}
      </td>
    </tr>
  );
}
