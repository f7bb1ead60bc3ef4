import type { ReactNode } from "react";
import { TableScroll } from "./table-scroll";

/**
 * The console's tables: a scrolling region named `label`, one column header per entry of `headers`, an
 * unlabelled-to-the-eye "Actions" column when rows carry buttons, and the rows as children.
 */
export function DataTable(props: {
  readonly label: string;
  readonly headers: readonly string[];
  readonly actions?: boolean;
  readonly children: ReactNode;
}) {
  return (
    <TableScroll label={props.label}>
      <table>
        <thead>
          <tr>
            {props.headers.map((header) => (
              <th key={header} scope="col">
                {header}
              </th>
            ))}
            {props.actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>{props.children}</tbody>
      </table>
    </TableScroll>
  );
}

/** One column of a table whose rows are data: its header and how a row's cell shows. */
export interface Column<Row> {
  readonly header: string;
  readonly show: (row: Row) => ReactNode;
  /** The row's name: a `<th scope="row">`. */
  readonly rowHeader?: boolean;
  readonly className?: string;
}

/** A cell of `column`: a row header or a data cell. */
export function Cell<Row>({ column, children }: { column: Column<Row>; children: ReactNode }) {
  return column.rowHeader ? (
    <th scope="row" className={column.className}>
      {children}
    </th>
  ) : (
    <td className={column.className}>{children}</td>
  );
}

type IdField<Row> = { [K in keyof Row]: Row[K] extends string | number ? K : never }[keyof Row] & string;

/** What a table of data shows: its accessible name, the field that names a row, and its columns. */
export interface TableSpec<Row> {
  /** The accessible name of the table's scroll region, e.g. "Batches table". */
  readonly label: string;
  /** The row's id field: its React key, and its data attribute by which tests find it (`run_id`: data-run-id). */
  readonly rowId: IdField<Row>;
  readonly columns: readonly Column<Row>[];
}

/**
 * The `rows` laid out as `table` says; `actions` renders the buttons of a row in a last, unnamed column
 * (it may be a component with state of its own, one per row).
 */
export function RowTable<Row>({
  table,
  rows,
  actions,
}: {
  readonly table: TableSpec<Row>;
  readonly rows: readonly Row[];
  readonly actions?: ((row: Row) => ReactNode) | undefined;
}) {
  const idAttribute = `data-${table.rowId.replaceAll("_", "-")}`;
  return (
    <DataTable label={table.label} headers={table.columns.map((column) => column.header)} actions={!!actions}>
      {rows.map((row) => {
        const id = row[table.rowId] as string | number;
        return (
          <tr key={id} {...{ [idAttribute]: id }}>
            {table.columns.map((column) => (
              <Cell key={column.header} column={column}>
                {column.show(row)}
              </Cell>
            ))}
            {actions && <td>{actions(row)}</td>}
          </tr>
        );
      })}
    </DataTable>
  );
}
