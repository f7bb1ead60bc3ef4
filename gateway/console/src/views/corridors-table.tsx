import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FormEvent } from "react";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { DraftFields, type DraftInput, useDraft } from "../components/draft-field";
import { type EditableColumn, EditableTable } from "../components/editable-table";
import { ErrorMessage } from "../components/error-message";
import { QueryState } from "../components/query-state";
import { useNotice } from "../components/result-notice";
import { Section, SubmitButton } from "../components/section";
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
  const mayEdit = useCan()("PUT /admin/corridors/{country_code}");
  const [notice, setDone] = useNotice();
  return (
    <Section headingId="corridors-heading" title="Corridor limits">
      {notice}
      <QueryState query={query} what="corridors" isEmpty={(d) => d.corridors.length === 0}>
        {(data) => (
          <EditableTable
            label="Corridor limits table"
            idPrefix="corridor"
            rows={data.corridors}
            rowKey={(c) => c.country_code}
            columns={CORRIDOR_COLUMNS}
            draftOf={({ country_code: _, ...limits }) => limits}
            validate={checkLimits}
            save={async (c, draft) => savedMessage(await api.putCorridor(c.country_code, trimmed(draft)))}
            invalidates={["corridors"]}
            onSaved={setDone}
            editable={mayEdit}
            editButton={(c) => ({ text: "Edit", label: `Edit ${c.country_code} corridor` })}
            saveText={(c) => `Save ${c.country_code}`}
          />
        )}
      </QueryState>
      {mayEdit && (
        <>
          <h3>Add a corridor</h3>
          <NewCorridor onDone={setDone} />
        </>
      )}
    </Section>
  );
}

/** What an edit of a corridor changes: everything but its country. */
type Limits = Omit<Types.Corridor, "country_code">;

const CORRIDOR_COLUMNS: readonly EditableColumn<Types.Corridor, Limits>[] = [
  { header: "Country", rowHeader: true, show: (c) => c.country_code },
  {
    header: "Currency",
    show: (c) => c.currency,
    edit: { field: "currency", label: () => "Currency", maxLength: 3, upperCase: true },
  },
  {
    header: "Minimum",
    className: "num",
    show: (c) => c.min_amount,
    edit: { field: "min_amount", label: () => "Minimum amount", inputMode: "decimal" },
  },
  {
    header: "Maximum",
    className: "num",
    show: (c) => c.max_amount,
    edit: { field: "max_amount", label: () => "Maximum amount", inputMode: "decimal" },
  },
  {
    header: "Enabled",
    show: (c) => (c.enabled ? "Yes" : "No"),
    edit: { field: "enabled", label: () => "Enabled", checkbox: true },
  },
];

const trimmed = (limits: Limits): Limits => ({
  ...limits,
  min_amount: limits.min_amount.trim(),
  max_amount: limits.max_amount.trim(),
});

const savedMessage = (saved: Types.Corridor) =>
  `Corridor ${saved.country_code} (${saved.currency}): ${saved.min_amount} to ${saved.max_amount}, ${
    saved.enabled ? "enabled" : "disabled"
  }.`;

type Problems = Partial<Record<keyof Types.Corridor, string>>;

function checkLimits(c: Limits): Problems {
  const problems: Problems = {};
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

function validate(c: Types.Corridor): Problems {
  const problems: Problems = {};
  if (!COUNTRY.test(c.country_code)) problems.country_code = "Use a two-letter ISO 3166 code such as BR.";
  return { ...problems, ...checkLimits(c) };
}

const NEW_CORRIDOR_INPUTS: readonly DraftInput<Types.Corridor>[] = [
  { field: "country_code", idSuffix: "country", label: "Country", maxLength: 2, upperCase: true },
  { field: "currency", label: "Currency", maxLength: 3, upperCase: true },
  { field: "min_amount", idSuffix: "min", label: "Minimum amount", inputMode: "decimal" },
  { field: "max_amount", idSuffix: "max", label: "Maximum amount", inputMode: "decimal" },
  { field: "enabled", label: "Enabled", checkbox: true },
];

/** A corridor for a country that has none yet. */
function NewCorridor({ onDone }: { onDone: (message: string) => void }) {
  const api = useApi();
  const client = useQueryClient();
  const state = useDraft(BLANK, validate);
  const save = useMutation({
    mutationFn: ({ country_code, ...limits }: Types.Corridor) =>
      api.putCorridor(country_code, trimmed(limits)),
    onSuccess: () => client.invalidateQueries({ queryKey: ["corridors"] }),
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!state.check()) return;
    save.mutate(state.draft, {
      onSuccess: (saved) => {
        state.reset();
        onDone(savedMessage(saved));
      },
    });
  }
  return (
    <form className="inline-form grid-form" onSubmit={submit} noValidate>
      <DraftFields idPrefix="corridor-new" inputs={NEW_CORRIDOR_INPUTS} state={state} />
      <div className="row-actions">
        <SubmitButton pending={save.isPending} text="Add corridor" />
      </div>
      {save.isError && <ErrorMessage error={save.error} prefix="Not saved" />}
    </form>
  );
}
