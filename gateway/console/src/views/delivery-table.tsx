import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { DataTable } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { formatTime, StatusBadge } from "../components/format";

/** A delivery can be sent again once it is settled either way; a pending or in-flight one is already on its way. */
const redeliverable = (d: Types.Delivery) => d.status === "dead" || d.status === "delivered";

/** Webhook deliveries with their outcome; dead ones stand out and can be sent again. */
export function DeliveryTable({
  deliveries,
  showAttempts = false,
  label,
  onDone,
}: {
  deliveries: readonly Types.Delivery[];
  showAttempts?: boolean;
  label: string;
  /** Reports a redelivery; the caller shows it above the list, which may change (or empty) right after. */
  onDone: (message: string) => void;
}) {
  if (deliveries.length === 0) return <p className="state empty">No webhook deliveries.</p>;
  return (
    <DataTable label={label} headers={["Delivery", "Event", "Outcome", "Attempts", "Last answer"]} actions>
      {deliveries.map((d) => (
        <DeliveryRow key={d.delivery_id} delivery={d} showAttempts={showAttempts} onDone={onDone} />
      ))}
    </DataTable>
  );
}

function DeliveryRow({
  delivery: d,
  showAttempts,
  onDone,
}: {
  delivery: Types.Delivery;
  showAttempts: boolean;
  onDone: (message: string) => void;
}) {
  const mayRedeliver = useCan()("POST /admin/webhook-deliveries/{delivery_id}/redeliver");
  const api = useApi();
  const client = useQueryClient();
  const redeliver = useMutation({
    mutationFn: () => api.redeliver(d.delivery_id),
    onSuccess: async (res) => {
      onDone(`Delivery ${d.delivery_id} queued again (${res.status}): it is sent at once.`);
      await client.invalidateQueries({ queryKey: ["deliveries"] });
      if (d.tx_id) await client.invalidateQueries({ queryKey: ["transaction", d.tx_id] });
    },
  });
  const dead = d.status === "dead";
  const { attempts } = d;
  return (
    <>
      <tr className={dead ? "dead" : undefined}>
        <th scope="row">
          <span className="mono">{d.delivery_id}</span>
          <div className="muted mono">
            to {d.config_id} · <span title="created">{formatTime(d.created_at)}</span>
          </div>
          {d.tx_id && !showAttempts && (
            <div>
              <Link to={`/transactions/${d.tx_id}`} className="mono">
                {d.tx_id}
              </Link>
            </div>
          )}
        </th>
        <td>{d.event_type}</td>
        <td>
          <StatusBadge status={d.status} />
          {d.next_attempt_at && d.status === "pending" && (
            <div className="muted">next {formatTime(d.next_attempt_at)}</div>
          )}
        </td>
        <td className="num">{d.attempt_count}</td>
        <td>
          <span className="num">{d.last_status_code ?? "—"}</span>
          {d.last_error && <div className="muted wrap">{d.last_error}</div>}
        </td>
        <td>
          {redeliverable(d) && mayRedeliver && (
            <button
              type="button"
              onClick={() => redeliver.mutate()}
              disabled={redeliver.isPending}
              aria-label={`Redeliver ${d.delivery_id}`}
            >
              {redeliver.isPending ? "Sending…" : "Redeliver"}
            </button>
          )}
          {redeliver.isError && <ErrorMessage error={redeliver.error} prefix="Not redelivered" />}
        </td>
      </tr>
      {showAttempts && attempts.length > 0 && (
        <tr className="attempts">
          <td colSpan={6}>
            <table aria-label={`Attempts of ${d.delivery_id}`}>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Attempted</th>
                  <th scope="col">Status code</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {attempts.map((a) => (
                  <tr key={a.attempt}>
                    <td className="num">{a.attempt}</td>
                    <td>{formatTime(a.attempted_at)}</td>
                    <td className="num">{a.status_code ?? "none"}</td>
                    <td className="num">{a.duration_ms === null ? "—" : `${a.duration_ms} ms`}</td>
                    <td>{a.error ?? ""}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </td>
        </tr>
      )}
    </>
  );
}
