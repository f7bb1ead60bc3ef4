import { useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import type { Column } from "../components/data-table";
import { FilterForm } from "../components/filters";
import { formatAge, formatTime } from "../components/format";
import { type ListSpec, ListTable, usePagedQuery } from "../components/list-table";
import { useNotice } from "../components/result-notice";
import { Section } from "../components/section";
import { ToggleAction } from "../components/toggle-action";
import { receiverColumns } from "./receiver-columns";

const CIRCUIT_LABEL: Record<Types.ReceiverHealth["circuit_state"], string> = {
  closed: "Closed",
  open: "Open",
  half_open: "Half-open (probing)",
};

const COLUMNS: readonly Column<Types.ReceiverHealth>[] = [
  ...receiverColumns<Types.ReceiverHealth>((r) => !r.enabled && <div className="muted">Disabled</div>),
  {
    header: "Circuit",
    show: (r) => (
      <>
        <span className={`badge ${r.circuit_state === "closed" ? "ok" : "bad"}`}>
          {CIRCUIT_LABEL[r.circuit_state]}
        </span>
        {r.circuit_failures > 0 && <div className="muted">{r.circuit_failures} failures in a row</div>}
        {r.circuit_retry_at && <div className="muted">next probe {formatTime(r.circuit_retry_at)}</div>}
      </>
    ),
  },
  { header: "Paused", show: (r) => (r.paused ? "Paused" : "No") },
  {
    header: "Backlog",
    className: "num",
    show: (r) => (
      <>
        {r.pending}
        {r.delivering > 0 && <div className="muted">{r.delivering} in flight</div>}
      </>
    ),
  },
  {
    header: "Oldest pending",
    show: (r) => (r.pending > 0 ? formatAge(r.oldest_pending_age_seconds) : "—"),
  },
];

const RECEIVERS: ListSpec<Types.ReceiverHealthList, Types.ReceiverHealth> = {
  label: "Receiver health table",
  what: "receiver health",
  empty: "No receiver matches these filters.",
  items: (answer) => answer.receivers,
  pagerLabel: "Receivers",
  rowId: "config_id",
  columns: COLUMNS,
};

/**
 * Each receiver's circuit breaker, operator pause and backlog, refreshed every 5 s, with Pause and Resume.
 * A paused receiver's deliveries wait (pending, no attempt used); resuming sends them at once, in order.
 */
export function ReceiverHealthSection() {
  const api = useApi();
  const [withBacklog, setWithBacklog] = useState(false);
  const [circuitOpen, setCircuitOpen] = useState(false);
  const [notice, setDone] = useNotice();
  const receivers = usePagedQuery(
    ["receiver-health", `${withBacklog}/${circuitOpen}`],
    (page) =>
      api.listReceiverHealth({
        ...(withBacklog ? { with_backlog: "true" } : {}),
        ...(circuitOpen ? { circuit_open: "true" } : {}),
        ...page,
      }),
    { refetchInterval: 5_000 },
  );
  return (
    <Section headingId="receiver-health-heading" title="Receiver health">
      <FilterForm layout="inline-form" label="Filter receivers">
        <label>
          <input type="checkbox" checked={withBacklog} onChange={(e) => setWithBacklog(e.target.checked)} />{" "}
          Only with a backlog
        </label>
        <label>
          <input type="checkbox" checked={circuitOpen} onChange={(e) => setCircuitOpen(e.target.checked)} />{" "}
          Only open circuits
        </label>
      </FilterForm>
      {notice}
      <ListTable
        {...receivers}
        list={RECEIVERS}
        actions={(r) => (
          <ToggleAction
            route={
              r.paused
                ? "POST /admin/webhook-receivers/{config_id}/resume"
                : "POST /admin/webhook-receivers/{config_id}/pause"
            }
            text={r.paused ? "Resume" : "Pause"}
            target={r.config_id}
            danger={!r.paused}
            toggle={() => api.setReceiverPaused(r.config_id, !r.paused)}
            invalidates={["receiver-health"]}
            describe={(saved) =>
              saved.paused
                ? `Receiver ${saved.config_id} paused: its deliveries wait until it is resumed.`
                : `Receiver ${saved.config_id} resumed: its waiting deliveries go out now.`
            }
            onDone={setDone}
          />
        )}
      />
    </Section>
  );
}
