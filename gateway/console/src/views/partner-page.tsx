import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { useApi, useCan } from "../auth/session-context";
import { ErrorMessage } from "../components/error-message";
import { formatTime } from "../components/format";
import { QueryState } from "../components/query-state";
import { useNotice } from "../components/result-notice";
import { useRouteRecord } from "../components/route-record";
import { Section } from "../components/section";
import { PartnerApps } from "./partner-apps";
import { PartnerBalance } from "./partner-balance";
import { draftOf, PartnerForm } from "./partner-form";
import { PartnerStatements } from "./partner-statements";

export function PartnerPage() {
  const api = useApi();
  const client = useQueryClient();
  const { id: partnerId, query } = useRouteRecord("partnerId", "partner", (api, id) => api.getPartner(id));
  const mayEdit = useCan()("PATCH /admin/partners/{partner_id}");
  const [notice, setSaved] = useNotice();
  const update = useMutation({
    mutationFn: (input: Parameters<typeof api.updatePartner>[1]) => api.updatePartner(partnerId, input),
    onSuccess: async (partner) => {
      setSaved(
        `Saved ${partner.name}: ${partner.supported_currencies.join(", ") || "no currencies"}, fees ${partner.fees.percent}% + ${partner.fees.fixed_usd} USD.`,
      );
      await client.invalidateQueries({ queryKey: ["partner", partnerId] });
      await client.invalidateQueries({ queryKey: ["partners"] });
    },
  });
  return (
    <>
      <p className="breadcrumb">
        <Link to="/partners">Partners</Link> / <span className="mono">{partnerId}</span>
      </p>
      <QueryState query={query} what="the partner">
        {(partner) => (
          <>
            <h1>{partner.name}</h1>
            <dl className="facts">
              <dt>Partner id</dt>
              <dd className="mono">{partner.partner_id}</dd>
              <dt>Created</dt>
              <dd>{formatTime(partner.created_at)}</dd>
              <dt>Updated</dt>
              <dd>{formatTime(partner.updated_at)}</dd>
            </dl>
            <Section headingId="partner-edit-heading" title="Fees and currencies">
              {notice}
              {mayEdit ? (
                <PartnerForm
                  key={partner.updated_at}
                  idPrefix="edit-partner"
                  initial={draftOf(partner)}
                  submitLabel="Save changes"
                  pending={update.isPending}
                  onSubmit={(input) => update.mutate(input)}
                />
              ) : (
                <p>
                  {partner.supported_currencies.join(", ") || "No currencies"}; fees {partner.fees.percent}% +{" "}
                  {partner.fees.fixed_usd} USD.
                </p>
              )}
              {update.isError && <ErrorMessage error={update.error} prefix="Not saved" />}
            </Section>
            <PartnerBalance partnerId={partner.partner_id} />
            <PartnerStatements partnerId={partner.partner_id} />
            <PartnerApps partnerId={partner.partner_id} />
          </>
        )}
      </QueryState>
    </>
  );
}
