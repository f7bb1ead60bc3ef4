import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useApi, useCan } from "../auth/session-context";
import { DataTable } from "../components/data-table";
import { ErrorMessage } from "../components/error-message";
import { formatTime, Usd } from "../components/format";
import { PagerControls, useCursorPager } from "../components/pager";
import { QueryState } from "../components/query-state";
import { draftOf, PartnerForm } from "./partner-form";

export function PartnersPage() {
  const api = useApi();
  const can = useCan();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [name, setName] = useState("");
  const [search, setSearch] = useState("");
  const pager = useCursorPager(`partners:${search}`);
  const query = useQuery({
    queryKey: ["partners", search, pager.cursor],
    queryFn: () => api.listPartners({ name: search, cursor: pager.cursor, limit: 25 }),
  });
  const create = useMutation({
    mutationFn: api.createPartner,
    onSuccess: async (partner) => {
      await client.invalidateQueries({ queryKey: ["partners"] });
      await navigate(`/partners/${partner.partner_id}`);
    },
  });
  const [openId, setOpenId] = useState("");
  function open(event: FormEvent) {
    event.preventDefault();
    if (openId.trim()) void navigate(`/partners/${encodeURIComponent(openId.trim())}`);
  }
  return (
    <>
      <h1>Partners</h1>
      <section aria-labelledby="partner-list-heading">
        <h2 id="partner-list-heading">All partners</h2>
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            setSearch(name.trim());
          }}
        >
          <label htmlFor="partner-name-search">Name contains</label>
          <input id="partner-name-search" value={name} onChange={(e) => setName(e.target.value)} />
          <button type="submit">Search</button>
        </form>
        <form className="inline-form" onSubmit={open}>
          <label htmlFor="open-partner">Open partner by id</label>
          <input
            id="open-partner"
            value={openId}
            onChange={(e) => setOpenId(e.target.value)}
            placeholder="ptr_…"
          />
          <button type="submit">Open</button>
        </form>
        <QueryState
          query={query}
          what="partners"
          isEmpty={(d) => d.partners.length === 0}
          empty="No partners yet: create the first one below."
        >
          {(data) => (
            <>
              <DataTable
                label="Partners table"
                headers={["Partner", "Active apps", "Balance", "In flight", "Created"]}
              >
                {data.partners.map((p) => (
                  <tr key={p.partner_id}>
                    <th scope="row">
                      <Link to={`/partners/${p.partner_id}`}>{p.name}</Link>
                      <div className="muted mono">{p.partner_id}</div>
                    </th>
                    <td className="num">{p.active_apps}</td>
                    <td>
                      <Usd value={p.balance_usd} />
                    </td>
                    <td>
                      <Usd value={p.in_flight_usd} />
                    </td>
                    <td>{formatTime(p.created_at)}</td>
                  </tr>
                ))}
              </DataTable>
              <PagerControls pager={pager} nextCursor={data.next_cursor} label="Partners" />
            </>
          )}
        </QueryState>
      </section>
      {can("POST /admin/partners") && (
        <section aria-labelledby="partner-create-heading">
          <h2 id="partner-create-heading">Create a partner</h2>
          <PartnerForm
            idPrefix="new-partner"
            initial={draftOf()}
            submitLabel="Create partner"
            pending={create.isPending}
            onSubmit={(input) => create.mutate(input)}
          />
          {create.isError && <ErrorMessage error={create.error} prefix="Partner not created" />}
        </section>
      )}
    </>
  );
}
