import { type QueryKey, type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { RowTable, type TableSpec } from "./data-table";
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

/** A list's words and rows: what it lists, why it may be empty, and where an answer holds its rows. */
export interface ListOf<T extends object, Row> {
  /** What is listed, for the loading and error messages ("batches"). */
  readonly what: string;
  /** Why there is nothing to show. */
  readonly empty: string;
  /** The rows of an answer. */
  readonly items: (answer: T) => readonly Row[];
  /** The name of the page controls when it is not `what`, capitalised ("Batches"). */
  readonly pagerLabel?: string;
}

/** A list shown as a table. */
export type ListSpec<T extends object, Row> = ListOf<T, Row> & TableSpec<Row>;

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The loading, error and empty states of a list (QueryState), then its rows (`children`) and, when the
 * list is paged, the Previous/Next controls.
 */
export function ListState<T extends object, Row>({
  query,
  pager,
  list,
  children,
}: {
  query: UseQueryResult<T>;
  /** Given for a paged list. */
  pager?: ReturnType<typeof useCursorPager>;
  list: ListOf<T, Row>;
  children: (rows: readonly Row[]) => ReactNode;
}) {
  return (
    <QueryState
      query={query}
      what={list.what}
      isEmpty={(answer) => list.items(answer).length === 0}
      empty={list.empty}
    >
      {(answer) => (
        <>
          {children(list.items(answer))}
          {pager && (
            <PagerControls
              pager={pager}
              nextCursor={(answer as Page).next_cursor}
              label={list.pagerLabel ?? capitalised(list.what)}
            />
          )}
        </>
      )}
    </QueryState>
  );
}

/** A ListState whose rows are a RowTable; `actions` renders a row's buttons. */
export function ListTable<T extends object, Row>({
  list,
  actions,
  ...state
}: {
  query: UseQueryResult<T>;
  pager?: ReturnType<typeof useCursorPager>;
  list: ListSpec<T, Row>;
  actions?: (row: Row) => ReactNode;
}) {
  return (
    <ListState {...state} list={list}>
      {(rows) => <RowTable table={list} rows={rows} actions={actions} />}
    </ListState>
  );
}
