import { useState } from "react";

/**
 * Cursor paging as the API does it: the first page has no cursor, each answer names the next. The stack of
 * cursors already visited makes "Previous" possible without the API knowing about it.
 */
export function useCursorPager(resetKey: string) {
  const [state, setState] = useState<{ key: string; stack: (string | undefined)[] }>({
    key: resetKey,
    stack: [undefined],
  });
  // A new search starts again at the first page.
  const stack = state.key === resetKey ? state.stack : [undefined];
  const cursor = stack[stack.length - 1];
  return {
    cursor,
    page: stack.length,
    next: (nextCursor: string) => setState({ key: resetKey, stack: [...stack, nextCursor] }),
    previous: () => setState({ key: resetKey, stack: stack.slice(0, -1) }),
  };
}

export function PagerControls({
  pager,
  nextCursor,
  label,
}: {
  pager: ReturnType<typeof useCursorPager>;
  nextCursor: string | null | undefined;
  label: string;
}) {
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button type="button" onClick={pager.previous} disabled={pager.page <= 1}>
        Previous
      </button>
      <span>Page {pager.page}</span>
      <button type="button" onClick={() => nextCursor && pager.next(nextCursor)} disabled={!nextCursor}>
        Next
      </button>
    </nav>
  );
}
