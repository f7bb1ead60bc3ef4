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
