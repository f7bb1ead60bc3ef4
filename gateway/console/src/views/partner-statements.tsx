import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useApi, useCan } from "../auth/session-context";
import { ErrorMessage } from "../components/error-message";
import { Field } from "../components/field";
import { QueryState } from "../components/query-state";
import { useNotice } from "../components/result-notice";
import { Section } from "../components/section";

/** Zones offered as suggestions; any IANA name is accepted (the API checks it). */
const SUGGESTED_ZONES = [
  "UTC",
  "America/Sao_Paulo",
  "America/Argentina/Buenos_Aires",
  "America/Lima",
  "America/Mexico_City",
  "Africa/Lagos",
  "Africa/Nairobi",
  "Europe/London",
];

/** The time zone the partner's daily statements are cut in. */
export function PartnerStatements({ partnerId }: { partnerId: string }) {
  const mayEdit = useCan()("PUT /admin/partners/{partner_id}/statement-settings");
  const api = useApi();
  const client = useQueryClient();
  const settings = useQuery({
    queryKey: ["statement-settings", partnerId],
    queryFn: () => api.getStatementSettings(partnerId),
  });
  const [zone, setZone] = useState<string>();
  const [notice, setSaved] = useNotice();
  const save = useMutation({
    mutationFn: (timeZone: string) => api.putStatementSettings(partnerId, timeZone),
    onSuccess: async (res) => {
      setSaved(`Statements are now cut in ${res.time_zone}. Days already closed keep their zone.`);
      setZone(undefined);
      await client.invalidateQueries({ queryKey: ["statement-settings", partnerId] });
    },
  });
  return (
    <Section headingId="statements-heading" title="Statements">
      {notice}
      <QueryState query={settings} what="the statement settings">
        {(current) => (
          <form
            className="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              save.mutate((zone ?? current.time_zone).trim());
            }}
          >
            <Field
              id="statement-time-zone"
              label="Time zone"
              hint="IANA name. A day closes after local midnight plus the grace period."
              list="statement-time-zones"
              value={zone ?? current.time_zone}
              onChange={(event) => setZone(event.target.value)}
            />
            <datalist id="statement-time-zones">
              {SUGGESTED_ZONES.map((name) => (
                <option key={name} value={name} />
              ))}
            </datalist>
            {mayEdit && (
              <button type="submit" disabled={save.isPending || zone === undefined}>
                Save time zone
              </button>
            )}
          </form>
        )}
      </QueryState>
      {save.isError && <ErrorMessage error={save.error} prefix="Not saved" />}
    </Section>
  );
}
