import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import type { Column } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { InlineSearch } from "../components/filters";
import { formatTime, Usd } from "../components/format";
import { type ListSpec, ListTable, usePagedQuery } from "../components/list-table";
import { Section } from "../components/section";
import { draftOf, PartnerForm } from "./partner-form";

const COLUMNS: readonly Column<Types.PartnerList["partners"][number]>[] = [
  {
    header: "Partner",
    rowHeader: true,
    show: (p) => (
      <>
        <Link to={`/partners/${p.partner_id}`}>{p.name}</Link>
        <div className="muted mono">{p.partner_id}</div>
      </>
    ),
  },
  { header: "Active apps", className: "num", show: (p) => p.active_apps },
  { header: "Balance", show: (p) => <Usd value={p.balance_usd} /> },
  { header: "In flight", show: (p) => <Usd value={p.in_flight_usd} /> },
  { header: "Created", show: (p) => formatTime(p.created_at) },
];

const PARTNERS: ListSpec<Types.PartnerList, Types.PartnerList["partners"][number]> = {
  label: "Partners table",
  what: "partners",
  empty: "No partners yet: create the first one below.",
  items: (answer) => answer.partners,
  rowId: "partner_id",
  columns: COLUMNS,
};

export function PartnersPage() {
  const api = useApi();
  const can = useCan();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [search, setSearch] = useState("");
  const partners = usePagedQuery(["partners", search], (page) => api.listPartners({ name: search, ...page }));
  const create = useMutation({
    mutationFn: api.createPartner,
    onSuccess: async (partner) => {
      await client.invalidateQueries({ queryKey: ["partners"] });
      await navigate(`/partners/${partner.partner_id}`);
    },
  });
  return (
    <>
      <h1>Partners</h1>
      <Section headingId="partner-list-heading" title="All partners">
        <InlineSearch id="partner-name-search" label="Name contains" button="Search" onSubmit={setSearch} />
        <InlineSearch
          id="open-partner"
          label="Open partner by id"
          button="Open"
          placeholder="ptr_…"
          onSubmit={(id) => id && void navigate(`/partners/${encodeURIComponent(id)}`)}
        />
        <ListTable {...partners} list={PARTNERS} />
      </Section>
      {can("POST /admin/partners") && (
        <Section headingId="partner-create-heading" title="Create a partner">
          <PartnerForm
            idPrefix="new-partner"
            initial={draftOf()}
            submitLabel="Create partner"
            pending={create.isPending}
            onSubmit={(input) => create.mutate(input)}
          />
          {create.isError && <ErrorMessage error={create.error} prefix="Partner not created" />}
        </Section>
      )}
    </>
  );
}
