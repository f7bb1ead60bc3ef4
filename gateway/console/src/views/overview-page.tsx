import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import { DataTable } from "../components/data-table";
import { formatDecimal, StatusBadge, Usd } from "../components/format";
import { QueryState } from "../components/query-state";

const REFRESH_MS = 5_000;

/** The live figures of the platform, refreshed every few seconds. */
export function OverviewPage() {
  const api = useApi();
  const query = useQuery({
    queryKey: ["overview"],
    queryFn: () => api.overview(),
    refetchInterval: REFRESH_MS,
  });
  return (
    <>
      <h1>Overview</h1>
      <p className="muted">
        Refreshes every {REFRESH_MS / 1000} s
        {query.dataUpdatedAt ? `; last updated ${new Date(query.dataUpdatedAt).toLocaleTimeString()}` : ""}.
      </p>
      <QueryState query={query} what="the overview">
        {(o) => <OverviewFigures overview={o} />}
      </QueryState>
    </>
  );
}

const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

function OverviewFigures({ overview: o }: { overview: Types.Overview }) {
  const { dead } = o.webhooks;
  return (
    <>
      <div className="tiles">
        <section className="tile" aria-labelledby="tile-balances">
          <h2 id="tile-balances">Partner balances</h2>
          <p className="big-figure">
            <Usd value={o.balances.total_usd} />
          </p>
          <p className="muted">
            {o.balances.partners} {o.balances.partners === 1 ? "partner" : "partners"};{" "}
            <Usd value={o.balances.in_flight_usd} /> in flight
          </p>
        </section>
        <section className="tile" aria-labelledby="tile-outbox">
          <h2 id="tile-outbox">Outbox lag</h2>
          <p className="big-figure">{o.outbox.unpublished} unpublished</p>
          <p className="muted">
            {o.outbox.unpublished === 0
              ? "Every event is published."
              : `Oldest waiting ${seconds(o.outbox.oldest_age_ms)}.`}
          </p>
        </section>
        <section className={`tile${dead > 0 ? " alert" : ""}`} aria-labelledby="tile-webhooks">
          <h2 id="tile-webhooks">Webhook deliveries</h2>
          <ul className="plain">
            <li>
              {dead > 0 ? (
                <Link to="/webhooks?status=dead">
                  <strong>Dead: {dead}</strong> — review and redeliver
                </Link>
              ) : (
                "Dead: 0"
              )}
            </li>
            <li>
              Pending: {o.webhooks.pending} ({o.webhooks.retrying} retrying
              {o.webhooks.pending_disabled
                ? `, ${o.webhooks.pending_disabled} held by disabled receivers`
                : ""}
              )
            </li>
            <li>Delivering now: {o.webhooks.delivering}</li>
            <li>
              Delivered: {o.webhooks.delivered_last_hour} in the last hour, {o.webhooks.delivered_last_day} in
              the last day
            </li>
            {o.webhooks.oldest_due_age_ms > 0 && (
              <li>Oldest due delivery late by {seconds(o.webhooks.oldest_due_age_ms)}</li>
            )}
          </ul>
        </section>
      </div>
      <PayoutTable title="Payouts in the last hour" window={o.payouts.last_hour} />
      <PayoutTable title="Payouts in the last day" window={o.payouts.last_day} />
    </>
  );
}

function PayoutTable({ title, window }: { title: string; window: Types.PayoutWindow }) {
  return (
    <section aria-label={title}>
      <h2>
        {title}: {window.total}
      </h2>
      {window.by_corridor.length === 0 ? (
        <p className="state empty">No payouts in this period.</p>
      ) : (
        <DataTable
          label={`${title} by corridor and status`}
          headers={["Corridor", "Status", "Payouts", "Amount", "Debited USD"]}
        >
          {window.by_corridor.map((r) => (
            <tr key={`${r.country}-${r.currency}-${r.status}`}>
              <th scope="row">
                {r.country} · {r.currency}
              </th>
              <td>
                <StatusBadge status={r.status} />
              </td>
              <td className="num">
                <Link
                  to={`/transactions?country=${r.country}&status=${r.status}${window.since ? `&created_from=${encodeURIComponent(window.since)}` : ""}`}
                  aria-label={`${r.count} ${r.status} payouts to ${r.country}`}
                >
                  {r.count}
                </Link>
              </td>
              <td className="num">
                {formatDecimal(r.amount, 0)} {r.currency}
              </td>
              <td>
                <Usd value={r.debited_usd} />
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
