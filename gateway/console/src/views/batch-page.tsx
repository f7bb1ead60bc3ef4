import { EDITABLE_STATUSES, ITEM_STATUSES } from "@payouts/ledger/batch-statuses";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { Link } from "react-router";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { ConfirmDialog, useConfirm } from "../components/confirm-dialog";
import { type Column, DataTable } from "../components/data-table";
import { StatusFilter } from "../components/filters";
import { formatDecimal, formatTime, StatusBadge, Usd } from "../components/format";
import { type ListSpec, ListTable, usePagedQuery } from "../components/list-table";
import { QueryState } from "../components/query-state";
import { useNotice } from "../components/result-notice";
import { useRouteRecord } from "../components/route-record";

const COUNTS: readonly [keyof Types.Batch["counts"], string][] = [
  ["total", "Items"],
  ["validating", "Validating"],
  ["invalid", "Invalid"],
  ["excluded", "Excluded"],
  ["pending", "Pending"],
  ["processing", "Processing"],
  ["succeeded", "Succeeded"],
  ["failed", "Failed"],
  ["refunded", "Refunded"],
  ["cancelled", "Cancelled"],
];

/** The batch's USD amounts, in the order they are shown. */
const AMOUNTS: readonly [keyof Types.Batch & `${string}_usd`, string][] = [
  ["total_usd", "Total"],
  ["reserved_usd", "Reserved"],
  ["released_usd", "Released"],
];

/** One batch: its status, amounts and counts, the per-item report, and cancelling it before funding. */
export function BatchPage() {
  const { id: batchId, query: batch } = useRouteRecord(
    "batchId",
    "batch",
    (api, id) => api.getBatch(id),
    5_000,
  );
  return (
    <>
      <p>
        <Link to="/batches">← Batches</Link>
      </p>
      <h1 className="mono">{batchId}</h1>
      <QueryState query={batch} what="the batch">
        {(b) => (
          <>
            <BatchSummary batch={b} />
            <CancelBatch batch={b} />
            <BatchItems batchId={b.batch_id} />
          </>
        )}
      </QueryState>
    </>
  );
}

function BatchSummary({ batch }: { batch: Types.Batch }) {
  return (
    <>
      <dl className="facts" aria-label="Batch">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={batch.status} />
        </dd>
        <dt>Partner</dt>
        <dd className="mono">
          <Link to={`/partners/${batch.partner_id}`}>{batch.partner_id}</Link>
        </dd>
        <dt>Source</dt>
        <dd>{batch.source}</dd>
        <dt>Approvals</dt>
        <dd>
          {batch.approvals.length} of {batch.required_approvals}
          {batch.approvals.map((a) => ` · ${a.approver_id} at ${formatTime(a.at)}`).join("")}
        </dd>
        {AMOUNTS.map(([key, label]) => (
          <Fragment key={key}>
            <dt>{label}</dt>
            <dd>
              <Usd value={batch[key]} />
            </dd>
          </Fragment>
        ))}
        <dt>Created</dt>
        <dd>{formatTime(batch.created_at)}</dd>
        {batch.cancel_reason && (
          <>
            <dt>Cancelled</dt>
            <dd>{batch.cancel_reason}</dd>
          </>
        )}
      </dl>
      <DataTable label="Item counts" headers={COUNTS.map(([, label]) => label)}>
        <tr>
          {COUNTS.map(([key]) => (
            <td key={key} className="num">
              {batch.counts[key]}
            </td>
          ))}
        </tr>
      </DataTable>
    </>
  );
}

function CancelBatch({ batch }: { batch: Types.Batch }) {
  const mayCancel = useCan()("POST /admin/batches/{batch_id}/cancel");
  const api = useApi();
  const client = useQueryClient();
  const confirm = useConfirm();
  const [notice, setResult] = useNotice();
  const cancel = useMutation({
    mutationFn: () => api.cancelBatch(batch.batch_id),
    onSuccess: async (b) => {
      confirm.close();
      setResult(`Cancelled ${b.batch_id}: ${b.counts.cancelled} items will not be paid.`);
      await client.invalidateQueries({ queryKey: ["batch", batch.batch_id] });
      await client.invalidateQueries({ queryKey: ["batches"] });
      await client.invalidateQueries({ queryKey: ["batch-items", batch.batch_id] });
    },
  });
  return (
    <>
      {notice}
      {EDITABLE_STATUSES.includes(batch.status) && mayCancel && (
        <div className="toolbar">
          <button type="button" className="danger" onClick={() => confirm.openFor(cancel)}>
            Cancel batch…
          </button>
        </div>
      )}
      <ConfirmDialog
        {...confirm.bind(cancel)}
        title={`Cancel ${batch.batch_id}?`}
        confirmLabel="Cancel batch"
        danger
        onConfirm={() => cancel.mutate()}
      >
        <p>
          None of its {batch.counts.total} items will be paid; their pending transactions expire. The partner
          sees the batch as CANCELLED, with your name as the reason.
        </p>
      </ConfirmDialog>
    </>
  );
}

function BatchItems({ batchId }: { batchId: string }) {
  const api = useApi();
  const [status, setStatus] = useState("");
  const items = usePagedQuery(
    ["batch-items", batchId, status],
    (page) => api.listBatchItems(batchId, { status, ...page }),
    { limit: 50, refetchInterval: 10_000 },
  );
  return (
    <>
      <h2>Items</h2>
      <StatusFilter
        name="Filter items"
        id="item-status"
        value={status}
        options={ITEM_STATUSES}
        onChange={setStatus}
      />
      <ListTable {...items} list={ITEMS} />
    </>
  );
}

const ITEMS_COLUMNS: readonly Column<Types.BatchItem>[] = [
  { header: "Row", className: "num", show: (item) => item.row_number },
  { header: "Item", rowHeader: true, className: "mono", show: (item) => item.item_ref },
  { header: "Status", show: (item) => <StatusBadge status={item.status} /> },
  {
    header: "Amount",
    className: "num",
    show: (item) => (
      <>
        {formatDecimal(item.amount, 0)} {item.currency ?? ""}
      </>
    ),
  },
  { header: "Total USD", show: (item) => <Usd value={item.total_usd} /> },
  {
    header: "Name check",
    show: (item) => (
      <>
        {item.name_match}
        {item.verified_name && <div className="muted">{item.verified_name}</div>}
      </>
    ),
  },
  {
    header: "Transaction",
    className: "mono",
    show: (item) => (item.tx_id ? <Link to={`/transactions/${item.tx_id}`}>{item.tx_id}</Link> : "—"),
  },
  {
    header: "Error",
    show: (item) =>
      item.error_code
        ? `${item.error_code}${item.error_field ? ` (${item.error_field})` : ""}: ${item.error_message ?? ""}`
        : (item.failure_reason ?? "—"),
  },
];

const ITEMS: ListSpec<Types.BatchItemList, Types.BatchItem> = {
  label: "Items table",
  what: "items",
  empty: "No item matches this filter.",
  items: (answer) => answer.items,
  rowId: "item_ref",
  columns: ITEMS_COLUMNS,
};
