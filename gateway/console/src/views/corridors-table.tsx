import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import { ErrorMessage } from "../components/error-message";
import { Field } from "../components/field";
import { QueryState } from "../components/query-state";
import { ResultNotice } from "../components/result-notice";
import { TableScroll } from "../components/table-scroll";
import { COUNTRY, CURRENCY, checkNonNegativeDecimal, compareDecimals } from "../components/validation";

const BLANK: Types.Corridor = {
  country_code: "",
  currency: "",
  min_amount: "",
  max_amount: "",
  enabled: true,
};

/** Corridor limits (per-payout minimum and maximum in the local currency) with inline editing. */
export function CorridorsTable() {
  const api = useApi();
  const query = useQuery({ queryKey: ["corridors"], queryFn: () => api.listCorridors() });
  const [editing, setEditing] = useState<string>();
  const [done, setDone] = useState<string>();
  const close = (message?: string) => {
    setEditing(undefined);
    if (message) setDone(message);
  };
  return (
    <section aria-labelledby="corridors-heading">
      <h2 id="corridors-heading">Corridor limits</h2>
      {done && <ResultNotice onDismiss={() => setDone(undefined)}>{done}</ResultNotice>}
      <QueryState query={query} what="corridors" isEmpty={(d) => d.corridors.length === 0}>
        {(data) => (
          <TableScroll label="Corridor limits table">
            <table>
              <thead>
                <tr>
                  <th scope="col">Country</th>
                  <th scope="col">Currency</th>
                  <th scope="col">Minimum</th>
                  <th scope="col">Maximum</th>
                  <th scope="col">Enabled</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.corridors.map((c) =>
                  editing === c.country_code ? (
                    <tr key={c.country_code} className="editing">
                      <td colSpan={6}>
                        <CorridorForm corridor={c} onClose={close} />
                      </td>
                    </tr>
                  ) : (
                    <tr key={c.country_code}>
                      <th scope="row">{c.country_code}</th>
                      <td>{c.currency}</td>
                      <td className="num">{c.min_amount}</td>
                      <td className="num">{c.max_amount}</td>
                      <td>{c.enabled ? "Yes" : "No"}</td>
                      <td>
                        <button
                          type="button"
                          onClick={() => setEditing(c.country_code)}
                          aria-label={`Edit ${c.country_code} corridor`}
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
      <h3>Add a corridor</h3>
      <CorridorForm corridor={BLANK} onClose={close} />
    </section>
  );
}

type Problems = Partial<Record<keyof Types.Corridor, string>>;

function validate(c: Types.Corridor): Problems {
  const problems: Problems = {};
  if (!COUNTRY.test(c.country_code)) problems.country_code = "Use a two-letter ISO 3166 code such as BR.";
  if (!CURRENCY.test(c.currency)) problems.currency = "Use a three-letter ISO 4217 code such as BRL.";
  const min = checkNonNegativeDecimal(c.min_amount, "The minimum");
  const max = checkNonNegativeDecimal(c.max_amount, "The maximum");
  if (min) problems.min_amount = min;
  if (max) problems.max_amount = max;
  if (!min && !max && compareDecimals(c.min_amount, c.max_amount) > 0) {
    problems.max_amount = "The maximum must not be below the minimum.";
  }
  return problems;
}

function CorridorForm({
  corridor,
  onClose,
}: {
  corridor: Types.Corridor;
  onClose: (message?: string) => void;
}) {
  const api = useApi();
  const client = useQueryClient();
  const isNew = corridor.country_code === "";
  const [value, setValue] = useState(corridor);
  const [problems, setProblems] = useState<Problems>({});
  const save = useMutation({
    mutationFn: (c: Types.Corridor) =>
      api.putCorridor(c.country_code, {
        currency: c.currency,
        min_amount: c.min_amount.trim(),
        max_amount: c.max_amount.trim(),
        enabled: c.enabled,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: ["corridors"] }),
  });
  const prefix = `corridor-${corridor.country_code || "new"}`;
  const set = (patch: Partial<Types.Corridor>) => setValue((v) => ({ ...v, ...patch }));
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(value);
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(value, {
      onSuccess: (saved) => {
        if (isNew) setValue(BLANK);
        onClose(
          `Corridor ${saved.country_code} (${saved.currency}): ${saved.min_amount} to ${saved.max_amount}, ${
            saved.enabled ? "enabled" : "disabled"
          }.`,
        );
      },
    });
  }
  return (
    <form className="inline-form grid-form" onSubmit={submit} noValidate>
      <Field
        id={`${prefix}-country`}
        label="Country"
        value={value.country_code}
        maxLength={2}
        readOnly={!isNew}
        onChange={(e) => set({ country_code: e.target.value.toUpperCase() })}
        error={problems.country_code}
      />
      <Field
        id={`${prefix}-currency`}
        label="Currency"
        value={value.currency}
        maxLength={3}
        onChange={(e) => set({ currency: e.target.value.toUpperCase() })}
        error={problems.currency}
      />
      <Field
        id={`${prefix}-min`}
        label="Minimum amount"
        inputMode="decimal"
        value={value.min_amount}
        onChange={(e) => set({ min_amount: e.target.value })}
        error={problems.min_amount}
      />
      <Field
        id={`${prefix}-max`}
        label="Maximum amount"
        inputMode="decimal"
        value={value.max_amount}
        onChange={(e) => set({ max_amount: e.target.value })}
        error={problems.max_amount}
      />
      <div className="field checkbox">
        <input
          id={`${prefix}-enabled`}
          type="checkbox"
          checked={value.enabled}
          onChange={(e) => set({ enabled: e.target.checked })}
        />
        <label htmlFor={`${prefix}-enabled`}>Enabled</label>
      </div>
      <div className="row-actions">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? "Saving…" : isNew ? "Add corridor" : `Save ${corridor.country_code}`}
        </button>
        {!isNew && (
          <button type="button" onClick={() => onClose()}>
            Cancel
          </button>
        )}
      </div>
      {save.isError && <ErrorMessage error={save.error} prefix="Not saved" />}
    </form>
  );
}
