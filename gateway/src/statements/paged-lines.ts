/**
 * A statement's lines read page by page from the ledger, with the next page asked for as soon as a page
 * arrives: the ledger reads page N+1 while page N is rendered and written. No more than that one page is
 * read ahead, so a slow reader still holds the ledger back.
 */

export interface LinePage<L> {
  readonly lines: readonly L[];
  readonly nextCursor: string;
}

/** Reads the page after `after` of at most `limit` lines. */
export type ReadLinePage<L> = (after: string, limit: number) => Promise<LinePage<L>>;

/**
 * The first `count` lines as the pages they arrive in, `pageSize` at a time; ends early on an empty page.
 * Lines past `count` (visible after the count was taken) are left out.
 */
export async function* linePages<L>(
  read: ReadLinePage<L>,
  count: number,
  pageSize: number,
): AsyncGenerator<readonly L[]> {
  let left = count;
  let pending = left > 0 ? read("", Math.min(left, pageSize)) : undefined;
  while (pending) {
    const page = await pending;
    if (page.lines.length === 0) return;
    const lines = page.lines.length > left ? page.lines.slice(0, left) : page.lines;
    left -= page.lines.length;
    pending = left > 0 ? read(page.nextCursor, Math.min(left, pageSize)) : undefined;
    // A reader that stops (the client went away) leaves the page read ahead unawaited: its failure then
    // concerns no one and must not surface as an unhandled rejection.
    pending?.catch(() => {});
    yield lines;
  }
}

/** `linePages` one line at a time. */
export async function* pagedLines<L>(
  read: ReadLinePage<L>,
  count: number,
  pageSize: number,
): AsyncGenerator<L> {
  for await (const page of linePages(read, count, pageSize)) yield* page;
}
