import { useState } from "react";
import { Field } from "./field";

/** What a form holds while the operator types: text fields and switches, by name. */
export type Draft = Record<string, string | boolean>;

/** A message per draft field that is wrong; none when the draft may be saved. */
export type Problems<D extends Draft> = { readonly [K in keyof D & string]?: string | undefined };

type FieldOf<D, V> = { [K in keyof D]: D[K] extends V ? K : never }[keyof D] & string;

/** A draft field typed into a text input. */
export interface TextInput<D extends Draft> {
  readonly field: FieldOf<D, string>;
  readonly label: string;
  /** The end of the input's id when it is not the field's name. */
  readonly idSuffix?: string;
  readonly hint?: string;
  readonly inputMode?: "decimal" | "numeric";
  readonly maxLength?: number;
  /** Codes (currencies, countries) are typed in capitals. */
  readonly upperCase?: boolean;
}

/** A draft field switched with a checkbox. */
export interface CheckboxInput<D extends Draft> {
  readonly field: FieldOf<D, boolean>;
  readonly label: string;
  readonly idSuffix?: string;
  readonly checkbox: true;
}

export type DraftInput<D extends Draft> = TextInput<D> | CheckboxInput<D>;

/** A draft, its problems, and the setter of one field. */
export interface DraftState<D extends Draft> {
  readonly draft: D;
  readonly problems: Problems<D>;
  readonly set: (field: keyof D & string, value: string | boolean) => void;
}

/**
 * A draft being typed, its problems, and `check`, which runs `validate`, shows what it found and says
 * whether the draft may be sent; `reset` starts over from `initial`.
 */
export function useDraft<D extends Draft>(initial: D, validate: (draft: D) => Problems<D>) {
  const [draft, setDraft] = useState(initial);
  const [problems, setProblems] = useState<Problems<D>>({});
  const set = (field: keyof D & string, value: string | boolean) =>
    setDraft((d) => ({ ...d, [field]: value }));
  const check = () => {
    const found = validate(draft);
    setProblems(found);
    return !Object.values(found).some(Boolean);
  };
  return { draft, problems, set, check, reset: () => setDraft(initial) };
}

/**
 * The input of one draft field, with its problem (or a refusal the caller passes as `error`) shown at it.
 * `form` ties an input outside its form (a table row being edited) to it.
 */
export function DraftField<D extends Draft>({
  idPrefix,
  input,
  state,
  form,
  error,
}: {
  idPrefix: string;
  input: DraftInput<D>;
  state: DraftState<D>;
  form?: string | undefined;
  error?: string | undefined;
}) {
  const id = `${idPrefix}-${input.idSuffix ?? input.field}`;
  if ("checkbox" in input) {
    return (
      <div className="field checkbox">
        <input
          id={id}
          form={form}
          type="checkbox"
          checked={state.draft[input.field] === true}
          onChange={(e) => state.set(input.field, e.target.checked)}
        />
        <label htmlFor={id}>{input.label}</label>
      </div>
    );
  }
  return (
    <Field
      id={id}
      form={form}
      label={input.label}
      hint={input.hint}
      inputMode={input.inputMode}
      maxLength={input.maxLength}
      value={String(state.draft[input.field])}
      onChange={(e) =>
        state.set(input.field, input.upperCase ? e.target.value.toUpperCase() : e.target.value)
      }
      error={error ?? state.problems[input.field]}
    />
  );
}

/** The inputs of a form, one per entry of `inputs`, in order. */
export function DraftFields<D extends Draft>({
  idPrefix,
  inputs,
  state,
}: {
  idPrefix: string;
  inputs: readonly DraftInput<D>[];
  state: DraftState<D>;
}) {
  return inputs.map((input) => (
    <DraftField key={input.field} idPrefix={idPrefix} input={input} state={state} />
  ));
}
