import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { ApiError } from "../api/api-error";
import { DataTable } from "./data-table";
import { ErrorMessage } from "./error-message";
import { Field } from "./field";

/** What an edited row holds while the operator types: text fields and switches, by name. */
export type Draft = Record<string, string | boolean>;

/** A message per draft field that is wrong; none when the draft may be saved. */
export type Problems<D extends Draft> = { readonly [K in keyof D & string]?: string | undefined };

type FieldOf<D, V> = { [K in keyof D]: D[K] extends V ? K : never }[keyof D] & string;

/** A column edited with a text input. */
export interface TextEdit<Row, D extends Draft> {
  readonly field: FieldOf<D, string>;
  /** The input's label, e.g. "New rate per USD for BRL". */
  readonly label: (row: Row) => string;
  readonly inputMode?: "decimal" | "numeric";
  readonly maxLength?: number;
  /** Codes (currencies, countries) are typed in capitals. */
  readonly upperCase?: boolean;
}

/** A column edited with a checkbox. */
export interface CheckboxEdit<Row, D extends Draft> {
  readonly field: FieldOf<D, boolean>;
  readonly label: (row: Row) => string;
  readonly checkbox: true;
}

export interface EditableColumn<Row, D extends Draft> {
  readonly header: string;
  /** The cell while the row is shown (and while it is edited, when the column has no `edit`). */
  readonly show: (row: Row) => ReactNode;
  /** The row's name: a `<th scope="row">`. */
  readonly rowHeader?: boolean;
  readonly className?: string;
  readonly edit?: TextEdit<Row, D> | CheckboxEdit<Row, D>;
}

export interface EditableTableProps<Row, D extends Draft> {
  /** The accessible name of the table's scroll region, e.g. "FX rates table". */
  readonly label: string;
  /** Prefix of the editors' element ids. */
  readonly idPrefix: string;
  readonly rows: readonly Row[];
  readonly rowKey: (row: Row) => string;
  readonly columns: readonly EditableColumn<Row, D>[];
  /** The draft an edit starts from. Its field names are the API's, so a refusal naming a field lands on it. */
  readonly draftOf: (row: Row) => D;
  /** The client-side checks, run before any request (the API still decides). */
  readonly validate: (draft: D) => Problems<D>;
  /** Saves the edited row; resolves to the notice that says what changed. */
  readonly save: (row: Row, draft: D) => Promise<string>;
  /** The queries a save makes stale. */
  readonly invalidates: QueryKey;
  readonly onSaved: (message: string) => void;
  /** The Edit button's text and accessible name. */
  readonly editButton: (row: Row) => { readonly text: string; readonly label: string };
  /** False when the signed-in role may not save: rows are shown without Edit. */
  readonly editable?: boolean;
  readonly saveText: (row: Row) => string;
  /** More buttons of a shown row, after Edit (e.g. Revoke). */
  readonly actions?: (row: Row) => ReactNode;
}

/**
 * A table whose rows are edited in place, one at a time: Edit turns the row's editable cells into inputs,
 * Save checks the draft (each problem shown at its field), sends it, and on success refreshes the data and
 * reports what changed; a refusal of the API that names a field is shown at that field, any other under
 * the buttons. Cancel drops the draft.
 */
export function EditableTable<Row, D extends Draft>(props: EditableTableProps<Row, D>) {
  const [editing, setEditing] = useState<string>();
  return (
    <DataTable label={props.label} headers={props.columns.map((column) => column.header)} actions>
      {props.rows.map((row) => {
        const key = props.rowKey(row);
        return editing === key ? (
          <EditingRow key={key} table={props} row={row} onClose={() => setEditing(undefined)} />
        ) : (
          <ShownRow key={key} table={props} row={row} onEdit={() => setEditing(key)} />
        );
      })}
    </DataTable>
  );
}

function Cell<Row, D extends Draft>({
  column,
  children,
}: {
  column: EditableColumn<Row, D>;
  children: ReactNode;
}) {
  return column.rowHeader ? (
    <th scope="row" className={column.className}>
      {children}
    </th>
  ) : (
    <td className={column.className}>{children}</td>
  );
}

function ShownRow<Row, D extends Draft>({
  table,
  row,
  onEdit,
}: {
  table: EditableTableProps<Row, D>;
  row: Row;
  onEdit: () => void;
}) {
  const edit = table.editButton(row);
  return (
    <tr>
      {table.columns.map((column) => (
        <Cell key={column.header} column={column}>
          {column.show(row)}
        </Cell>
      ))}
      <td>
        <div className="row-actions">
          {table.editable !== false && (
            <button type="button" onClick={onEdit} aria-label={edit.label}>
              {edit.text}
            </button>
          )}
          {table.actions?.(row)}
        </div>
      </td>
    </tr>
  );
}

function EditingRow<Row, D extends Draft>({
  table,
  row,
  onClose,
}: {
  table: EditableTableProps<Row, D>;
  row: Row;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const [draft, setDraft] = useState(() => table.draftOf(row));
  const [problems, setProblems] = useState<Problems<D>>({});
  const save = useMutation({
    mutationFn: (d: D) => table.save(row, d),
    onSuccess: async (message) => {
      await client.invalidateQueries({ queryKey: table.invalidates });
      table.onSaved(message);
      onClose();
    },
  });
  const formId = `${table.idPrefix}-${table.rowKey(row)}`;
  const set = (field: string, value: string | boolean) => setDraft((d) => ({ ...d, [field]: value }));
  // A refusal naming one of the edited fields is shown at that field.
  const refusal = save.error instanceof ApiError ? save.error : undefined;
  const refusedField = table.columns.some((c) => c.edit && c.edit.field === refusal?.field)
    ? refusal?.field
    : undefined;
  const problemOf = (field: keyof D & string) =>
    problems[field] ?? (refusal && refusedField === field ? `Not saved: ${refusal.message}` : undefined);
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = table.validate(draft);
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    save.mutate(draft);
  }
  return (
    <tr className="editing">
      {table.columns.map(({ edit, ...column }) => (
        <Cell key={column.header} column={column}>
          {!edit ? (
            column.show(row)
          ) : "checkbox" in edit ? (
            <div className="field checkbox">
              <input
                id={`${formId}-${edit.field}`}
                form={formId}
                type="checkbox"
                checked={draft[edit.field] === true}
                onChange={(e) => set(edit.field, e.target.checked)}
              />
              <label htmlFor={`${formId}-${edit.field}`}>{edit.label(row)}</label>
            </div>
          ) : (
            <Field
              id={`${formId}-${edit.field}`}
              form={formId}
              label={edit.label(row)}
              inputMode={edit.inputMode}
              maxLength={edit.maxLength}
              value={String(draft[edit.field])}
              onChange={(e) =>
                set(edit.field, edit.upperCase ? e.target.value.toUpperCase() : e.target.value)
              }
              error={problemOf(edit.field)}
            />
          )}
        </Cell>
      ))}
      <td>
        <form id={formId} onSubmit={submit} noValidate className="row-actions">
          <button type="submit" className="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : table.saveText(row)}
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </form>
        {save.isError && !refusedField && <ErrorMessage error={save.error} prefix="Not saved" />}
      </td>
    </tr>
  );
}
