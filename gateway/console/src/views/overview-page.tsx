import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import { StatusBadge, Usd } from "../components/format";
import { QueryState } from "../components/query-state";
import { TableScroll } from "../components/table-scroll";

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

function OverviewFigures({ overview: o }: { overview: Types.Overview }) {
  const dead = o.webhook_deliveries.dead;
  return (
    <>
      <div className="tiles">
        <div className="tile">
          <h2>Partner balances</h2>
          <p className="big-figure">
            <Usd value={o.partner_balances_usd} />
          </p>
        </div>
        <div className="tile">
          <h2>Outbox lag</h2>
          <p className="big-figure">{o.outbox.unpublished} unpublished</p>
          <p className="muted">
            {o.outbox.oldest_unpublished_age_seconds === null
              ? "Nothing waiting."
              : `Oldest waiting ${o.outbox.oldest_unpublished_age_seconds} s.`}
          </p>
        </div>
        <div className={`tile${dead > 0 ? " alert" : ""}`}>
          <h2>Webhook deliveries</h2>
          <ul className="plain">
            <li>Delivered: {o.webhook_deliveries.delivered}</li>
            <li>Pending: {o.webhook_deliveries.pending}</li>
            <li>
              {dead > 0 ? (
                <Link to="/webhooks?outcome=DEAD">
                  <strong>Dead: {dead}</strong> — review and redeliver
                </Link>
              ) : (
                "Dead: 0"
              )}
            </li>
          </ul>
        </div>
      </div>
      <PayoutTable title="Payouts in the last hour" rows={o.payouts.last_hour} />
      <PayoutTable title="Payouts in the last day" rows={o.payouts.last_day} />
    </>
  );
}

function PayoutTable({ title, rows }: { title: string; rows: Types.PayoutCount[] }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <p className="state empty">No payouts in this period.</p>
      ) : (
        <TableScroll label={`${title} table`}>
          <table>
            <thead>
              <tr>
                <th scope="col">Corridor</th>
                <th scope="col">Status</th>
                <th scope="col">Payouts</th>
                <th scope="col">Total USD</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={`${r.country}-${r.status}`}>
                  <th scope="row">{r.country}</th>
                  <td>
                    <StatusBadge status={r.status} />
                  </td>
                  <td className="num">
                    <Link to={`/transactions?country=${r.country}&status=${r.status}`}>{r.count}</Link>
                  </td>
                  <td className="num">
                    <Usd value={r.total_usd} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
