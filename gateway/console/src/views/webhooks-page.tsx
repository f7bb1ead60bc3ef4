import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import type { Column } from "../components/data-table";
import { FilterForm, InlineSearch, SelectFilter, TextFilter, useUrlFilters } from "../components/filters";
import { type ListOf, type ListSpec, ListState, ListTable, usePagedQuery } from "../components/list-table";
import { useNotice } from "../components/result-notice";
import { Section } from "../components/section";
import { ToggleAction } from "../components/toggle-action";
import { DeliveryTable } from "./delivery-table";
import { receiverColumns } from "./receiver-columns";
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

const DELIVERIES: ListOf<Types.DeliveryList, Types.Delivery> = {
  what: "deliveries",
  empty: "No delivery matches these filters.",
  items: (answer) => answer.deliveries,
};

function Deliveries() {
  const api = useApi();
  const { filters, key, bind } = useUrlFilters(["status", "event_type", "partner_id"]);
  const [notice, setRedelivered] = useNotice();
  const deliveries = usePagedQuery(
    ["deliveries", key],
    (page) => api.listDeliveries({ ...filters, ...page }),
    { refetchInterval: 5_000 },
  );
  return (
    <Section headingId="deliveries-heading" title="Deliveries">
      <FilterForm layout="grid-form" label="Filter deliveries">
        <SelectFilter id="delivery-outcome" label="Outcome" options={OUTCOMES} {...bind("status")} />
        <SelectFilter id="delivery-event" label="Event" options={EVENTS} {...bind("event_type")} />
        <TextFilter id="delivery-partner" label="Partner id" placeholder="ptr_…" {...bind("partner_id")} />
      </FilterForm>
      {notice}
      <ListState {...deliveries} list={DELIVERIES}>
        {(rows) => <DeliveryTable deliveries={rows} label="Webhook deliveries" onDone={setRedelivered} />}
      </ListState>
    </Section>
  );
}

const CONFIGS_COLUMNS: readonly Column<Types.WebhookConfig>[] = [
  ...receiverColumns(),
  { header: "Events", show: (c) => (c.events.includes("*") ? "all" : c.events.join(", ")) },
  {
    header: "State",
    show: (c) => (
      <>
        {c.enabled ? "Enabled" : "Disabled"}
        {c.disabled_reason && <div className="muted">{c.disabled_reason}</div>}
        <div className="muted">
          {c.pending_deliveries} pending, {c.dead_deliveries} dead
        </div>
      </>
    ),
  },
];

const CONFIGS: ListSpec<Types.WebhookConfigList, Types.WebhookConfig> = {
  label: "Webhook configs table",
  what: "webhook configs",
  empty: "No webhook receivers are configured.",
  items: (answer) => answer.webhook_configs,
  rowId: "config_id",
  columns: CONFIGS_COLUMNS,
};

function Configs() {
  const api = useApi();
  const [shown, setShown] = useState("");
  const query = useQuery({
    queryKey: ["webhook-configs", shown],
    queryFn: () => api.listWebhookConfigs(shown ? { partner_id: shown } : {}),
  });
  const [notice, setDone] = useNotice();
  return (
    <Section headingId="configs-heading" title="Receivers (webhook configs)">
      <InlineSearch
        id="configs-partner"
        label="Partner id"
        button="Show"
        placeholder="all"
        onSubmit={setShown}
      />
      {notice}
      <ListTable
        query={query}
        list={CONFIGS}
        actions={(c) => (
          <ToggleAction
            route="PATCH /admin/webhook-configs/{config_id}"
            text={c.enabled ? "Disable" : "Enable"}
            target={c.config_id}
            danger={c.enabled}
            toggle={() => api.setWebhookConfigEnabled(c.config_id, !c.enabled)}
            invalidates={["webhook-configs"]}
            describe={(saved) =>
              saved.enabled
                ? `Receiver ${saved.config_id} enabled: new events are delivered to it again.`
                : `Receiver ${saved.config_id} disabled: it gets no new deliveries.`
            }
            onDone={setDone}
          />
        )}
      />
    </Section>
  );
}
