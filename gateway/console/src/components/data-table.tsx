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

/** Data attributes of a row (`data-run-id`), by which tests and scripts find it. */
export type RowData = Readonly<Record<`data-${string}`, string | number>>;

/**
 * A DataTable of `rows` laid out by `columns`; `actions` renders the buttons of a row in a last, unnamed
 * column (it may be a component with state of its own, one per row).
 */
export function RowTable<Row>(props: {
  readonly label: string;
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  readonly rowKey: (row: Row) => string | number;
  readonly rowData?: ((row: Row) => RowData) | undefined;
  readonly actions?: ((row: Row) => ReactNode) | undefined;
}) {
  return (
    <DataTable
      label={props.label}
      headers={props.columns.map((column) => column.header)}
      actions={props.actions !== undefined}
    >
      {props.rows.map((row) => (
        <tr key={props.rowKey(row)} {...props.rowData?.(row)}>
          {props.columns.map((column) => (
            <Cell key={column.header} column={column}>
              {column.show(row)}
            </Cell>
          ))}
          {props.actions && <td>{props.actions(row)}</td>}
        </tr>
      ))}
    </DataTable>
  );
}
