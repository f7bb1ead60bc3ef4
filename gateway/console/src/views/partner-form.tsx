import type { FormEvent } from "react";
import type { Types } from "../api/admin-api";
import { DraftFields, type DraftInput, useDraft } from "../components/draft-field";
import { SubmitButton } from "../components/section";
import { CURRENCY, checkNonNegativeDecimal } from "../components/validation";

export type PartnerDraft = {
  name: string;
  currencies: string;
  percent: string;
  fixedUsd: string;
};

export const draftOf = (p?: Types.Partner): PartnerDraft => ({
  name: p?.name ?? "",
  currencies: p?.supported_currencies.join(", ") ?? "",
  percent: p?.fees.percent ?? "0",
  fixedUsd: p?.fees.fixed_usd ?? "0",
});

type Problems = Partial<Record<keyof PartnerDraft, string>>;

function parse(draft: PartnerDraft): { input?: Types.PartnerInput; problems: Problems } {
  const problems: Problems = {};
  const name = draft.name.trim();
  if (!name) problems.name = "The name is required.";
  else if (name.length > 200) problems.name = "The name may have at most 200 characters.";
  const currencies = draft.currencies
    .split(/[\s,]+/)
    .map((c) => c.trim().toUpperCase())
    .filter(Boolean);
  const wrong = currencies.filter((c) => !CURRENCY.test(c));
  if (wrong.length) problems.currencies = `Not a three-letter currency code: ${wrong.join(", ")}.`;
  const percent = checkNonNegativeDecimal(draft.percent, "The percentage fee");
  const fixed = checkNonNegativeDecimal(draft.fixedUsd, "The fixed fee");
  if (percent) problems.percent = percent;
  if (fixed) problems.fixedUsd = fixed;
  if (Object.keys(problems).length) return { problems };
  return {
    problems,
    input: {
      name,
      supported_currencies: [...new Set(currencies)],
      fees: { percent: draft.percent.trim(), fixed_usd: draft.fixedUsd.trim() },
    },
  };
}

const INPUTS: readonly DraftInput<PartnerDraft>[] = [
  { field: "name", label: "Name" },
  {
    field: "currencies",
    label: "Supported currencies",
    hint: "Three-letter codes separated by commas, e.g. BRL, ARS",
  },
  { field: "percent", label: "Percentage fee (%)", inputMode: "decimal" },
  { field: "fixedUsd", idSuffix: "fixed", label: "Fixed fee (USD)", inputMode: "decimal" },
];

/** Name, supported currencies and fee schedule: used to create a partner and to edit one. */
export function PartnerForm({
  idPrefix,
  initial,
  submitLabel,
  pending,
  onSubmit,
}: {
  idPrefix: string;
  initial: PartnerDraft;
  submitLabel: string;
  pending: boolean;
  onSubmit: (input: Types.PartnerInput, reset: () => void) => void;
}) {
  const state = useDraft(initial, (draft) => parse(draft).problems);
  function submit(event: FormEvent) {
    event.preventDefault();
    const { input } = parse(state.draft);
    if (state.check() && input) onSubmit(input, state.reset);
  }
  return (
    <form className="grid-form" onSubmit={submit} noValidate>
      <DraftFields idPrefix={idPrefix} inputs={INPUTS} state={state} />
      <div className="row-actions">
        <SubmitButton pending={pending} text={submitLabel} />
      </div>
    </form>
  );
}
