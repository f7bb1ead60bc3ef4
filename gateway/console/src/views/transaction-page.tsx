import { Link } from "react-router";
import type { Types } from "../api/admin-api";
import { DataTable } from "../components/data-table";
import { formatDecimal, formatTime, StatusBadge, Usd } from "../components/format";
import { QueryState } from "../components/query-state";
import { useNotice } from "../components/result-notice";
import { useRouteRecord } from "../components/route-record";
import { Section } from "../components/section";
import { DeliveryTable } from "./delivery-table";
import { TransactionActions } from "./transaction-actions";

const MOVING = new Set(["PENDING", "PROCESSING"]);

/** One transaction: what it pays, where, at what price, how the books moved, and what the partner was told. */
export function TransactionPage() {
  const { id: txId, query } = useRouteRecord(
    "txId",
    "transaction",
    (api, id) => api.getTransaction(id),
    // A payout on its way is watched closely; a finished one rarely changes (refunds, webhook retries).
    (q) => (q.state.data && MOVING.has(q.state.data.status) ? 1_500 : 10_000),
  );
  return (
    <>
      <p className="breadcrumb">
        <Link to="/transactions">Transactions</Link> / <span className="mono">{txId}</span>
      </p>
      <QueryState query={query} what="the transaction">
        {(tx) => <TransactionView tx={tx} />}
      </QueryState>
    </>
  );
}

function TransactionView({ tx }: { tx: Types.TransactionDetail }) {
  const [notice, setRedelivered] = useNotice();
  return (
    <>
      <h1>
        Transaction <span className="mono">{tx.tx_id}</span>
      </h1>
      <p className="status-line" aria-live="polite">
        Status: <StatusBadge status={tx.status} />
        {tx.failure_reason ? <span className="muted"> — {tx.failure_reason}</span> : null}
        {tx.refund_reason ? <span className="muted"> — refunded: {tx.refund_reason}</span> : null}
      </p>
      <TransactionActions tx={tx} />
      <div className="columns">
        <Section headingId="tx-summary-heading" title="Summary">
          <dl className="facts">
            <dt>Partner</dt>
            <dd>
              <Link to={`/partners/${tx.partner_id}`} className="mono">
                {tx.partner_id}
              </Link>
            </dd>
            {tx.partner_transaction_id ? (
              <>
                <dt>Partner's id</dt>
                <dd>{tx.partner_transaction_id}</dd>
              </>
            ) : null}
            <dt>Amount</dt>
            <dd className="num">
              {formatDecimal(tx.amount, 0)} {tx.currency}
            </dd>
            <dt>Corridor</dt>
            <dd>
              {tx.country || "—"} · {tx.currency}
            </dd>
            <dt>Total debited</dt>
            <dd>{tx.total_usd === null ? "not quoted" : <Usd value={tx.total_usd} />}</dd>
            {tx.provider_reference ? (
              <>
                <dt>Rail reference</dt>
                <dd className="mono">{tx.provider_reference}</dd>
              </>
            ) : null}
            <dt>Created</dt>
            <dd>{formatTime(tx.created_at)}</dd>
            <dt>Updated</dt>
            <dd>{formatTime(tx.updated_at)}</dd>
          </dl>
        </Section>
        <Section headingId="tx-destination-heading" title="Destination">
          <KeyValues value={tx.destination ?? undefined} empty="No destination recorded." />
        </Section>
        <Section headingId="tx-quote-heading" title="Quote">
          <KeyValues value={tx.quote ?? undefined} empty="Not quoted yet." />
        </Section>
      </div>
      <Section headingId="tx-timeline-heading" title="Status history">
        {tx.status_history.length ? (
          <ol className="timeline">
            {tx.status_history.map((step) => (
              <li key={`${step.to}-${step.at}`}>
                <StatusBadge status={step.to} />{" "}
                <time dateTime={step.at ?? undefined}>{formatTime(step.at)}</time>
                {step.from ? <span className="muted"> from {step.from}</span> : null}
                {step.reason ? <span className="muted"> — {step.reason}</span> : null}
              </li>
            ))}
          </ol>
        ) : (
          <p className="state empty">No status changes recorded.</p>
        )}
      </Section>
      <Section headingId="tx-ledger-heading" title="Ledger entries">
        {tx.ledger_movements.length ? (
          <DataTable label="Ledger entries table" headers={["When", "Movement", "Account", "Amount USD"]}>
            {tx.ledger_movements.flatMap((m) =>
              m.lines.map((line, i) => (
                <tr key={`${m.movement_id}-${line.account}`}>
                  <td>{i === 0 ? formatTime(m.created_at) : ""}</td>
                  <td>{i === 0 ? `${m.kind}${m.reference ? ` (${m.reference})` : ""}` : ""}</td>
                  <td className="mono">{line.account}</td>
                  <td>
                    <Usd value={line.amount_usd} />
                  </td>
                </tr>
              )),
            )}
          </DataTable>
        ) : (
          <p className="state empty">No money has moved for this transaction.</p>
        )}
      </Section>
      <Section headingId="tx-webhooks-heading" title="Webhook deliveries">
        {notice}
        <DeliveryTable
          deliveries={tx.webhook_deliveries}
          showAttempts
          label="Webhook deliveries of this transaction"
          onDone={setRedelivered}
        />
      </Section>
    </>
  );
}

/** A flat or nested object shown as a definition list; the API has already masked what must be masked. */
function KeyValues({ value, empty }: { value: Record<string, unknown> | undefined; empty: string }) {
  if (!value || Object.keys(value).length === 0) return <p className="state empty">{empty}</p>;
  return (
    <dl className="facts">
      {Object.entries(value).map(([key, v]) => (
        <div key={key} className="fact">
          <dt>{key.replaceAll("_", " ")}</dt>
          <dd>
            {v !== null && typeof v === "object" ? (
              <ul className="plain">
                {Object.entries(v as Record<string, unknown>).map(([k, x]) => (
                  <li key={k}>
                    <span className="muted">{k.replaceAll("_", " ")}:</span>{" "}
                    {x === "" || x == null ? "—" : String(x)}
                  </li>
                ))}
              </ul>
            ) : v === null || v === undefined || v === "" ? (
              "—"
            ) : (
              String(v)
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
