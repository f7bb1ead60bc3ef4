import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ErrorMessage } from "./error-message";

/**
 * Loading, error and empty states of one query, the same way everywhere: a status line while loading, the
 * API's error with a retry, an explanation when there is nothing, and the content otherwise.
 */
export function QueryState<T>({
  query,
  what,
  isEmpty,
  empty,
  children,
}: {
  query: UseQueryResult<T>;
  /** What is being loaded, for the messages ("transactions"). */
  what: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return (
      <p className="state" role="status">
        Loading {what}…
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className="state">
        <ErrorMessage error={query.error} prefix={`Could not load ${what}`} />
        <button type="button" onClick={() => void query.refetch()}>
          Try again
        </button>
      </div>
    );
  }
  if (isEmpty?.(query.data)) {
    return (
      <p className="state empty" role="status">
        {empty ?? `No ${what} yet.`}
      </p>
    );
  }
  return <>{children(query.data)}</>;
}
