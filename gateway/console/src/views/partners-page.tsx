import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Link, useNavigate } from "react-router";
import { useApi } from "../auth/session-context";
import { ErrorMessage } from "../components/error-message";
import { formatTime, Usd } from "../components/format";
import { PagerControls, useCursorPager } from "../components/pager";
import { QueryState } from "../components/query-state";
import { TableScroll } from "../components/table-scroll";
import { draftOf, PartnerForm } from "./partner-form";

export function PartnersPage() {
  const api = useApi();
  const navigate = useNavigate();
  const client = useQueryClient();
  const pager = useCursorPager("partners");
  const query = useQuery({
    queryKey: ["partners", pager.cursor],
    queryFn: () => api.listPartners({ cursor: pager.cursor, limit: 25 }),
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
              <TableScroll label="Partners table">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Partner</th>
                      <th scope="col">Currencies</th>
                      <th scope="col">Fees</th>
                      <th scope="col">Balance</th>
                      <th scope="col">Created</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.partners.map((p) => (
                      <tr key={p.partner_id}>
                        <th scope="row">
                          <Link to={`/partners/${p.partner_id}`}>{p.name}</Link>
                          <div className="muted mono">{p.partner_id}</div>
                        </th>
                        <td>{p.supported_currencies.join(", ") || "—"}</td>
                        <td>
                          {p.fees.percent}% + {p.fees.fixed_usd} USD
                        </td>
                        <td>{p.balance_usd !== undefined ? <Usd value={p.balance_usd} /> : "—"}</td>
                        <td>{formatTime(p.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
              <PagerControls pager={pager} nextCursor={data.next_cursor} label="Partners" />
            </>
          )}
        </QueryState>
      </section>
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
    </>
  );
}
