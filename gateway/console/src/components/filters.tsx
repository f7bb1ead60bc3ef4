import { type FormEvent, type ReactNode, useState } from "react";
import { useSearchParams } from "react-router";

/**
 * Search filters kept in the page's address, so a search can be bookmarked or shared: each filter's value
 * ("" when unset), a key that changes with any of them, a setter (an empty value removes the filter), and
 * `bind(name)`, the value and change handler of that filter's field.
 */
export function useUrlFilters<Name extends string>(names: readonly Name[]) {
  const [params, setParams] = useSearchParams();
  const filters = Object.fromEntries(names.map((n) => [n, params.get(n) ?? ""])) as Record<Name, string>;
  const update = (name: Name, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
  const bind = (name: Name) => ({ value: filters[name], onChange: (value: string) => update(name, value) });
  return { filters, key: params.toString(), update, bind };
}

interface SelectFilterProps {
  id: string;
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
}

/** A filter by one value of a list; "Any" (the empty value) filters nothing. */
export function SelectFilter({ id, label, value, options, onChange }: SelectFilterProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Any</option>
        {options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </div>
  );
}

/** A free-text filter, applied (trimmed) when the operator leaves the field or presses Enter. */
export function TextFilter({
  id,
  label,
  value,
  placeholder,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  placeholder?: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        defaultValue={value}
        placeholder={placeholder}
        onBlur={(e) => onChange(e.target.value.trim())}
        onKeyDown={(e) => {
          if (e.key === "Enter") onChange(e.currentTarget.value.trim());
        }}
      />
    </div>
  );
}

/** A bound of a search by day (`date`) or by local wall time (`datetime-local`). */
export function DateFilter({
  id,
  label,
  type = "date",
  value,
  onChange,
}: {
  id: string;
  label: string;
  type?: "date" | "datetime-local";
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type={type} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

/** A one-field form (label, input, submit button) that hands the trimmed value to `onSubmit`. */
export function InlineSearch({
  id,
  label,
  button,
  placeholder,
  onSubmit,
}: {
  id: string;
  label: string;
  button: string;
  placeholder?: string;
  onSubmit: (value: string) => void;
}) {
  const [value, setValue] = useState("");
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit(value.trim());
  }
  return (
    <form className="inline-form" onSubmit={submit}>
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(e) => setValue(e.target.value)} placeholder={placeholder} />
      <button type="submit">{button}</button>
    </form>
  );
}

/**
 * The form around filters that apply as they change: named for assistive technology, and Enter in one of
 * its fields submits nothing.
 */
export function FilterForm({
  label,
  layout,
  children,
}: {
  label: string;
  /** The form's classes: a grid of fields, a grid above search results, or fields in a row. */
  layout: "grid-form" | "grid-form search" | "inline-form";
  children: ReactNode;
}) {
  return (
    <form className={layout} aria-label={label} onSubmit={(e) => e.preventDefault()}>
      {children}
    </form>
  );
}

/** The one filter of a list filtered by status, in the form named `name` above the results. */
export function StatusFilter({ name, ...select }: Omit<SelectFilterProps, "label"> & { name: string }) {
  return (
    <FilterForm layout="grid-form search" label={name}>
      <SelectFilter label="Status" {...select} />
    </FilterForm>
  );
}
