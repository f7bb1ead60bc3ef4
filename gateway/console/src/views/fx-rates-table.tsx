import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { DraftFields, type DraftInput, useDraft } from "../components/draft-field";
import { type EditableColumn, EditableTable } from "../components/editable-table";
import { ErrorMessage } from "../components/error-message";
import { formatTime } from "../components/format";
import { QueryState } from "../components/query-state";
import { useNotice } from "../components/result-notice";
import { Section } from "../components/section";
import { CURRENCY, checkPositiveDecimal } from "../components/validation";

/** FX rates (local currency units per USD) with inline editing; a new rate prices every later quote. */
export function FxRatesTable() {
  const api = useApi();
  const query = useQuery({ queryKey: ["fx-rates"], queryFn: () => api.listFxRates() });
  const mayEdit = useCan()("PUT /admin/fx-rates/{currency}");
  const [notice, setDone] = useNotice();
  return (
    <Section headingId="fx-heading" title="FX rates">
      {notice}
      <QueryState query={query} what="FX rates" isEmpty={(d) => d.fx_rates.length === 0}>
        {(data) => (
          <EditableTable
            label="FX rates table"
            idPrefix="fx"
            rows={data.fx_rates}
            rowKey={(rate) => rate.currency}
            columns={FX_COLUMNS}
            draftOf={(rate) => ({ rate_per_usd: rate.rate_per_usd })}
            validate={(draft) => ({ rate_per_usd: checkPositiveDecimal(draft.rate_per_usd, "The rate", 10) })}
            save={async (rate, draft) =>
              savedMessage(await api.putFxRate(rate.currency, draft.rate_per_usd.trim()))
            }
            invalidates={["fx-rates"]}
            onSaved={setDone}
            editable={mayEdit}
            editButton={(rate) => ({ text: "Edit", label: `Edit ${rate.currency} rate` })}
            saveText={() => "Save"}
          />
        )}
      </QueryState>
      {mayEdit && <NewFxRate onDone={setDone} />}
    </Section>
  );
}

const FX_COLUMNS: readonly EditableColumn<Types.FxRate, { rate_per_usd: string }>[] = [
  { header: "Currency", rowHeader: true, show: (rate) => rate.currency },
  {
    header: "Rate per USD",
    className: "num",
    show: (rate) => rate.rate_per_usd,
    edit: {
      field: "rate_per_usd",
      label: (rate) => `New rate per USD for ${rate.currency}`,
      inputMode: "decimal",
    },
  },
  { header: "Updated", show: (rate) => formatTime(rate.updated_at) },
];

const savedMessage = (saved: Types.FxRate) => `${saved.currency} is now ${saved.rate_per_usd} per USD.`;

function useSaveRate() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ currency, rate }: { currency: string; rate: string }) => api.putFxRate(currency, rate),
    onSuccess: () => client.invalidateQueries({ queryKey: ["fx-rates"] }),
  });
}

type NewRate = { currency: string; rate: string };

const NEW_RATE_INPUTS: readonly DraftInput<NewRate>[] = [
  { field: "currency", label: "Currency", maxLength: 3, upperCase: true },
  { field: "rate", label: "Rate per USD", inputMode: "decimal" },
];

const checkNewRate = ({ currency, rate }: NewRate) => ({
  currency: CURRENCY.test(currency.trim()) ? undefined : "Use a three-letter ISO 4217 code such as BRL.",
  rate: checkPositiveDecimal(rate, "The rate", 10),
});

function NewFxRate({ onDone }: { onDone: (message: string) => void }) {
  const save = useSaveRate();
  const state = useDraft({ currency: "", rate: "" }, checkNewRate);
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!state.check()) return;
    save.mutate(
      { currency: state.draft.currency.trim(), rate: state.draft.rate.trim() },
      {
        onSuccess: (saved) => {
          onDone(savedMessage(saved));
          state.reset();
        },
      },
    );
  }
  return (
    <form className="add-form" onSubmit={submit} noValidate aria-labelledby="fx-add-heading">
      <h3 id="fx-add-heading">Set a rate for another currency</h3>
      <DraftFields idPrefix="fx-new" inputs={NEW_RATE_INPUTS} state={state} />
      <button type="submit" disabled={save.isPending}>
        Set rate
      </button>
      {save.isError && <ErrorMessage error={save.error} prefix="Not saved" />}
    </form>
  );
}
