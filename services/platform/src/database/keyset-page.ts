/** One page of a keyset-paged list, and the cursor of the next page ("" when this is the last). */
export interface KeysetPage<R> {
  readonly page: R[];
  readonly nextCursor: string;
}

/**
 * The page out of rows read with `LIMIT limit + 1`: the first `limit` of them and, when the extra row shows
 * that more follow, the cursor made from the page's last row.
 */
export function keysetPage<R>(
  fetched: readonly R[],
  limit: number,
  cursorOf: (last: R) => string,
): KeysetPage<R> {
  const page = fetched.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: fetched.length > limit && last !== undefined ? cursorOf(last) : "" };
}
