import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { ApiError } from "../api/api-error";
import { Cell, type Column, DataTable } from "./data-table";
import {
  type CheckboxInput,
  type Draft,
  DraftField,
  type Problems,
  type TextInput,
  useDraft,
} from "./draft-field";
import { ErrorMessage } from "./error-message";
import { SubmitButton } from "./section";

/** How a column is edited: a draft field's input, labelled for the row (e.g. "New rate per USD for BRL"). */
export type ColumnEdit<Row, D extends Draft> = (
  | Omit<TextInput<D>, "label">
  | Omit<CheckboxInput<D>, "label">
) & {
  readonly label: (row: Row) => string;
};

export interface EditableColumn<Row, D extends Draft> extends Column<Row> {
  readonly edit?: ColumnEdit<Row, D>;
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

/** A row of the table, shown or being edited. */
interface TableRow<Row, D extends Draft> {
  readonly table: EditableTableProps<Row, D>;
  readonly row: Row;
}

function ShownRow<Row, D extends Draft>({ table, row, onEdit }: TableRow<Row, D> & { onEdit: () => void }) {
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
}: TableRow<Row, D> & { onClose: () => void }) {
  const client = useQueryClient();
  const state = useDraft(table.draftOf(row), table.validate);
  const save = useMutation({
    mutationFn: (d: D) => table.save(row, d),
    onSuccess: async (message) => {
      await client.invalidateQueries({ queryKey: table.invalidates });
      table.onSaved(message);
      onClose();
    },
  });
  const formId = `${table.idPrefix}-${table.rowKey(row)}`;
  // A refusal naming one of the edited fields is shown at that field.
  const refusal = save.error instanceof ApiError ? save.error : undefined;
  const refusedField = table.columns.some((c) => c.edit && c.edit.field === refusal?.field)
    ? refusal?.field
    : undefined;
  function submit(event: FormEvent) {
    event.preventDefault();
    if (state.check()) save.mutate(state.draft);
  }
  return (
    <tr className="editing">
      {table.columns.map(({ edit, ...column }) => (
        <Cell key={column.header} column={column}>
          {edit ? (
            <DraftField
              idPrefix={formId}
              form={formId}
              input={{ ...edit, label: edit.label(row) }}
              state={state}
              error={
                state.problems[edit.field] ??
                (refusal && refusedField === edit.field ? `Not saved: ${refusal.message}` : undefined)
              }
            />
          ) : (
            column.show(row)
          )}
        </Cell>
      ))}
      <td>
        <form id={formId} onSubmit={submit} noValidate className="row-actions">
          <SubmitButton pending={save.isPending} text={table.saveText(row)} />
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </form>
        {save.isError && !refusedField && <ErrorMessage error={save.error} prefix="Not saved" />}
      </td>
    </tr>
  );
}
