import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import { ErrorMessage } from "../components/error-message";
import { formatTime, StatusBadge } from "../components/format";
import { ResultNotice } from "../components/result-notice";
import { TableScroll } from "../components/table-scroll";

const attemptsOf = (d: Types.Delivery): Types.DeliveryAttempt[] =>
  Array.isArray(d.attempts) ? d.attempts : [];
const attemptCount = (d: Types.Delivery) => (Array.isArray(d.attempts) ? d.attempts.length : d.attempts);

/** Webhook deliveries with their outcome; dead ones stand out and can be sent again. */
export function DeliveryTable({
  deliveries,
  showAttempts = false,
  label,
}: {
  deliveries: Types.Delivery[];
  showAttempts?: boolean;
  label: string;
}) {
  const [result, setResult] = useState<string>();
  if (deliveries.length === 0) return <p className="state empty">No webhook deliveries.</p>;
  return (
    <>
      {result && <ResultNotice onDismiss={() => setResult(undefined)}>{result}</ResultNotice>}
      <TableScroll label={label}>
        <table>
          <thead>
            <tr>
              <th scope="col">Delivery</th>
              <th scope="col">Event</th>
              <th scope="col">Outcome</th>
              <th scope="col">Attempts</th>
              <th scope="col">Last answer</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {deliveries.map((d) => (
              <DeliveryRow key={d.delivery_id} delivery={d} showAttempts={showAttempts} onDone={setResult} />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
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
  const api = useApi();
  const client = useQueryClient();
  const redeliver = useMutation({
    mutationFn: () => api.redeliver(d.delivery_id),
    onSuccess: async (res) => {
      onDone(`Delivery ${d.delivery_id} queued again (${res.status}). It is retried at once.`);
      await client.invalidateQueries({ queryKey: ["deliveries"] });
      if (d.tx_id) await client.invalidateQueries({ queryKey: ["transaction", d.tx_id] });
    },
  });
  const dead = d.status.toUpperCase() === "DEAD" || d.status.toUpperCase() === "FAILED";
  const attempts = attemptsOf(d);
  return (
    <>
      <tr className={dead ? "dead" : undefined}>
        <th scope="row">
          <span className="mono">{d.delivery_id}</span>
          {d.url && <div className="muted wrap">{d.url}</div>}
          {d.tx_id && !showAttempts && (
            <div>
              <Link to={`/transactions/${d.tx_id}`} className="mono">
                {d.tx_id}
              </Link>
            </div>
          )}
        </th>
        <td>{d.event}</td>
        <td>
          <StatusBadge status={d.status} />
          {d.next_attempt_at && d.status.toUpperCase() === "PENDING" && (
            <div className="muted">next {formatTime(d.next_attempt_at)}</div>
          )}
        </td>
        <td className="num">{attemptCount(d)}</td>
        <td className="num">{d.last_status_code ?? attempts[attempts.length - 1]?.status_code ?? "—"}</td>
        <td>
          {d.status.toUpperCase() !== "PENDING" && (
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
