import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { type EditableColumn, EditableTable } from "../components/editable-table";
import { ErrorMessage } from "../components/error-message";
import { formatTime } from "../components/format";
import { QueryState } from "../components/query-state";
import { ResultNotice } from "../components/result-notice";
import { CURRENCY, checkPositiveDecimal } from "../components/validation";

/** FX rates (local currency units per USD) with inline editing; a new rate prices every later quote. */
export function FxRatesTable() {
  const api = useApi();
  const query = useQuery({ queryKey: ["fx-rates"], queryFn: () => api.listFxRates() });
  const mayEdit = useCan()("PUT /admin/fx-rates/{currency}");
  const [done, setDone] = useState<string>();
  return (
    <section aria-labelledby="fx-heading">
      <h2 id="fx-heading">FX rates</h2>
      {done && <ResultNotice onDismiss={() => setDone(undefined)}>{done}</ResultNotice>}
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
    </section>
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

function NewFxRate({ onDone }: { onDone: (message: string) => void }) {
  const save = useSaveRate();
  const [currency, setCurrency] = useState("");
  const [rate, setRate] = useState("");
  const [invalid, setInvalid] = useState<{ currency?: string | undefined; rate?: string | undefined }>({});
  function submit(event: FormEvent) {
    event.preventDefault();
    const problems = {
      currency: CURRENCY.test(currency.trim()) ? undefined : "Use a three-letter ISO 4217 code such as BRL.",
      rate: checkPositiveDecimal(rate, "The rate", 10),
    };
    setInvalid(problems);
    if (problems.currency || problems.rate) return;
    save.mutate(
      { currency: currency.trim(), rate: rate.trim() },
      {
        onSuccess: (saved) => {
          onDone(savedMessage(saved));
          setCurrency("");
          setRate("");
        },
      },
    );
  }
  return (
    <form className="add-form" onSubmit={submit} noValidate aria-labelledby="fx-add-heading">
      <h3 id="fx-add-heading">Set a rate for another currency</h3>
      <div className="field">
        <label htmlFor="fx-new-currency">Currency</label>
        <input
          id="fx-new-currency"
          value={currency}
          maxLength={3}
          onChange={(e) => setCurrency(e.target.value.toUpperCase())}
          aria-invalid={invalid.currency ? true : undefined}
          aria-describedby={invalid.currency ? "fx-new-currency-error" : undefined}
        />
        {invalid.currency && (
          <p id="fx-new-currency-error" className="error" role="alert">
            {invalid.currency}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="fx-new-rate">Rate per USD</label>
        <input
          id="fx-new-rate"
          inputMode="decimal"
          value={rate}
          onChange={(e) => setRate(e.target.value)}
          aria-invalid={invalid.rate ? true : undefined}
          aria-describedby={invalid.rate ? "fx-new-rate-error" : undefined}
        />
        {invalid.rate && (
          <p id="fx-new-rate-error" className="error" role="alert">
            {invalid.rate}
          </p>
        )}
      </div>
      <button type="submit" disabled={save.isPending}>
        Set rate
      </button>
      {save.isError && <ErrorMessage error={save.error} prefix="Not saved" />}
    </form>
  );
}
