import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import { ErrorMessage } from "../components/error-message";
import { formatTime } from "../components/format";
import { QueryState } from "../components/query-state";
import { ResultNotice } from "../components/result-notice";
import { TableScroll } from "../components/table-scroll";
import { CURRENCY, checkPositiveDecimal } from "../components/validation";

/** FX rates (local currency units per USD) with inline editing; a new rate prices every later quote. */
export function FxRatesTable() {
  const api = useApi();
  const query = useQuery({ queryKey: ["fx-rates"], queryFn: () => api.listFxRates() });
  const [editing, setEditing] = useState<string>();
  const [done, setDone] = useState<string>();
  return (
    <section aria-labelledby="fx-heading">
      <h2 id="fx-heading">FX rates</h2>
      {done && <ResultNotice onDismiss={() => setDone(undefined)}>{done}</ResultNotice>}
      <QueryState query={query} what="FX rates" isEmpty={(d) => d.fx_rates.length === 0}>
        {(data) => (
          <TableScroll label="FX rates table">
            <table>
              <thead>
                <tr>
                  <th scope="col">Currency</th>
                  <th scope="col">Rate per USD</th>
                  <th scope="col">Updated</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.fx_rates.map((rate) =>
                  editing === rate.currency ? (
                    <FxRateEditor
                      key={rate.currency}
                      rate={rate}
                      onClose={(message) => {
                        setEditing(undefined);
                        if (message) setDone(message);
                      }}
                    />
                  ) : (
                    <tr key={rate.currency}>
                      <th scope="row">{rate.currency}</th>
                      <td className="num">{rate.rate_per_usd}</td>
                      <td>{formatTime(rate.updated_at)}</td>
                      <td>
                        <button
                          type="button"
                          onClick={() => setEditing(rate.currency)}
                          aria-label={`Edit ${rate.currency} rate`}
                        >
                          Edit
                        </button>
                      </td>
                    </tr>
                  ),
                )}
              </tbody>
            </table>
          </TableScroll>
        )}
      </QueryState>
      <NewFxRate onDone={setDone} />
    </section>
  );
}

function useSaveRate() {
  const api = useApi();
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ currency, rate }: { currency: string; rate: string }) => api.putFxRate(currency, rate),
    onSuccess: () => client.invalidateQueries({ queryKey: ["fx-rates"] }),
  });
}

function FxRateEditor({ rate, onClose }: { rate: Types.FxRate; onClose: (message?: string) => void }) {
  const save = useSaveRate();
  const [value, setValue] = useState(rate.rate_per_usd);
  const [invalid, setInvalid] = useState<string>();
  const id = `fx-${rate.currency}`;
  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = checkPositiveDecimal(value, "The rate", 10);
    setInvalid(problem);
    if (problem) return;
    save.mutate(
      { currency: rate.currency, rate: value.trim() },
      { onSuccess: (saved) => onClose(`${saved.currency} is now ${saved.rate_per_usd} per USD.`) },
    );
  }
  return (
    <tr className="editing">
      <th scope="row">{rate.currency}</th>
      <td colSpan={2}>
        <form id={`${id}-form`} onSubmit={submit} noValidate className="inline-form">
          <label htmlFor={id}>New rate per USD for {rate.currency}</label>
          <input
            id={id}
            inputMode="decimal"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={invalid ? `${id}-error` : undefined}
          />
          {invalid && (
            <p id={`${id}-error`} className="error" role="alert">
              {invalid}
            </p>
          )}
          {save.isError && <ErrorMessage error={save.error} prefix="Not saved" />}
        </form>
      </td>
      <td className="row-actions">
        <button type="submit" form={`${id}-form`} className="primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save"}
        </button>
        <button type="button" onClick={() => onClose()}>
          Cancel
        </button>
      </td>
    </tr>
  );
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
          onDone(`${saved.currency} is now ${saved.rate_per_usd} per USD.`);
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
