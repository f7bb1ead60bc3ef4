import { type QueryKey, type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { type Column, type RowData, RowTable } from "./data-table";
import { PagerControls, useCursorPager } from "./pager";
import { QueryState } from "./query-state";

/** One answer of a list route; a cursor-paged one names the next page. */
export interface Page {
  readonly next_cursor?: string | null | undefined;
}

/**
 * A cursor-paged query: `fetchPage` loads the page at the pager's cursor. A new `queryKey` (other filters)
 * starts again at the first page; every page's key begins with `queryKey`, so invalidating it refreshes all.
 */
export function usePagedQuery<T extends Page>(
  queryKey: QueryKey,
  fetchPage: (page: { cursor: string | undefined; limit: number }) => Promise<T>,
  options: { limit?: number; refetchInterval?: number } = {},
) {
  const pager = useCursorPager(JSON.stringify(queryKey));
  const query = useQuery({
    queryKey: [...queryKey, pager.cursor],
    queryFn: () => fetchPage({ cursor: pager.cursor, limit: options.limit ?? 25 }),
    refetchInterval: options.refetchInterval ?? false,
  });
  return { query, pager };
}

export interface ListProps<T extends object, Row> {
  query: UseQueryResult<T>;
  /** Given for a paged list: Previous/Next controls follow the rows. */
  pager?: ReturnType<typeof useCursorPager>;
  /** What is listed, for the loading and error messages ("batches"). */
  what: string;
  /** Why there is nothing to show. */
  empty: string;
  /** The rows of an answer. */
  items: (answer: T) => readonly Row[];
  /** The name of the page controls, e.g. "Batches". */
  pagerLabel?: string;
}

/**
 * The loading, error and empty states of a list (QueryState), then its rows (`children`) and, when it is
 * paged, the Previous/Next controls.
 */
export function ListState<T extends object, Row>({
  query,
  pager,
  what,
  empty,
  items,
  pagerLabel = what,
  children,
}: ListProps<T, Row> & { children: (rows: readonly Row[]) => ReactNode }) {
  return (
    <QueryState query={query} what={what} isEmpty={(answer) => items(answer).length === 0} empty={empty}>
      {(answer) => (
        <>
          {children(items(answer))}
          {pager && (
            <PagerControls pager={pager} nextCursor={(answer as Page).next_cursor} label={pagerLabel} />
          )}
        </>
      )}
    </QueryState>
  );
}

/** A ListState whose rows are shown in a RowTable named `label`. */
export function ListTable<T extends object, Row>({
  label,
  columns,
  rowKey,
  rowData,
  actions,
  ...list
}: ListProps<T, Row> & {
  label: string;
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string | number;
  rowData?: (row: Row) => RowData;
  actions?: (row: Row) => ReactNode;
}) {
  return (
    <ListState {...list}>
      {(rows) => (
        <RowTable
          label={label}
          columns={columns}
          rows={rows}
          rowKey={rowKey}
          rowData={rowData}
          actions={actions}
        />
      )}
    </ListState>
  );
}
