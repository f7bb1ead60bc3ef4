import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { DataTable } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { SelectFilter, TextFilter, useUrlFilters } from "../components/filters";
import { PagerControls, useCursorPager } from "../components/pager";
import { QueryState } from "../components/query-state";
import { ResultNotice } from "../components/result-notice";
import { DeliveryTable } from "./delivery-table";
import { ReceiverHealthSection } from "./receiver-health-table";

const OUTCOMES = ["pending", "delivering", "delivered", "dead"];
const EVENTS = [
  "transaction.success",
  "transaction.refunded",
  "transaction.failed",
  "statement.closed",
  "batch.completed",
];

export function WebhooksPage() {
  return (
    <>
      <h1>Webhooks</h1>
      <ReceiverHealthSection />
      <Deliveries />
      <Configs />
    </>
  );
}

function Deliveries() {
  const api = useApi();
  const { filters, key, bind } = useUrlFilters(["status", "event_type", "partner_id"]);
  const pager = useCursorPager(key);
  const [redelivered, setRedelivered] = useState<string>();
  const query = useQuery({
    queryKey: ["deliveries", key, pager.cursor],
    queryFn: () => api.listDeliveries({ ...filters, cursor: pager.cursor, limit: 25 }),
    refetchInterval: 5_000,
  });
  return (
    <section aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      <form className="grid-form" aria-label="Filter deliveries" onSubmit={(e) => e.preventDefault()}>
        <SelectFilter id="delivery-outcome" label="Outcome" options={OUTCOMES} {...bind("status")} />
        <SelectFilter id="delivery-event" label="Event" options={EVENTS} {...bind("event_type")} />
        <TextFilter id="delivery-partner" label="Partner id" placeholder="ptr_…" {...bind("partner_id")} />
      </form>
      {redelivered && <ResultNotice onDismiss={() => setRedelivered(undefined)}>{redelivered}</ResultNotice>}
      <QueryState
        query={query}
        what="deliveries"
        isEmpty={(d) => d.deliveries.length === 0}
        empty="No delivery matches these filters."
      >
        {(data) => (
          <>
            <DeliveryTable deliveries={data.deliveries} label="Webhook deliveries" onDone={setRedelivered} />
            <PagerControls pager={pager} nextCursor={data.next_cursor} label="Deliveries" />
          </>
        )}
      </QueryState>
    </section>
  );
}

function Configs() {
  const api = useApi();
  const [partnerId, setPartnerId] = useState("");
  const [shown, setShown] = useState("");
  const query = useQuery({
    queryKey: ["webhook-configs", shown],
    queryFn: () => api.listWebhookConfigs(shown ? { partner_id: shown } : {}),
  });
  const [done, setDone] = useState<string>();
  function submit(event: FormEvent) {
    event.preventDefault();
    setShown(partnerId.trim());
  }
  return (
    <section aria-labelledby="configs-heading">
      <h2 id="configs-heading">Receivers (webhook configs)</h2>
      <form className="inline-form" onSubmit={submit}>
        <label htmlFor="configs-partner">Partner id</label>
        <input
          id="configs-partner"
          value={partnerId}
          onChange={(e) => setPartnerId(e.target.value)}
          placeholder="all"
        />
        <button type="submit">Show</button>
      </form>
      {done && <ResultNotice onDismiss={() => setDone(undefined)}>{done}</ResultNotice>}
      <QueryState
        query={query}
        what="webhook configs"
        isEmpty={(d) => d.webhook_configs.length === 0}
        empty="No webhook receivers are configured."
      >
        {(data) => (
          <DataTable
            label="Webhook configs table"
            headers={["Receiver", "Partner", "Events", "State"]}
            actions
          >
            {data.webhook_configs.map((c) => (
              <ConfigRow key={c.config_id} config={c} onDone={setDone} />
            ))}
          </DataTable>
        )}
      </QueryState>
    </section>
  );
}

function ConfigRow({ config: c, onDone }: { config: Types.WebhookConfig; onDone: (m: string) => void }) {
  const api = useApi();
  const mayToggle = useCan()("PATCH /admin/webhook-configs/{config_id}");
  const client = useQueryClient();
  const toggle = useMutation({
    mutationFn: () => api.setWebhookConfigEnabled(c.config_id, !c.enabled),
    onSuccess: async (saved) => {
      onDone(
        saved.enabled
          ? `Receiver ${saved.config_id} enabled: new events are delivered to it again.`
          : `Receiver ${saved.config_id} disabled: it gets no new deliveries.`,
      );
      await client.invalidateQueries({ queryKey: ["webhook-configs"] });
    },
  });
  return (
    <tr>
      <th scope="row">
        <span className="mono">{c.config_id}</span>
        <div className="muted wrap">{c.url}</div>
      </th>
      <td className="mono">{c.partner_id}</td>
      <td>{c.events.includes("*") ? "all" : c.events.join(", ")}</td>
      <td>
        {c.enabled ? "Enabled" : "Disabled"}
        {c.disabled_reason && <div className="muted">{c.disabled_reason}</div>}
        <div className="muted">
          {c.pending_deliveries} pending, {c.dead_deliveries} dead
        </div>
      </td>
      <td>
        {mayToggle && (
          <button
            type="button"
            className={c.enabled ? "danger" : "primary"}
            onClick={() => toggle.mutate()}
            disabled={toggle.isPending}
            aria-label={`${c.enabled ? "Disable" : "Enable"} ${c.config_id}`}
          >
            {c.enabled ? "Disable" : "Enable"}
          </button>
        )}
        {toggle.isError && <ErrorMessage error={toggle.error} prefix="Not changed" />}
      </td>
    </tr>
  );
}
