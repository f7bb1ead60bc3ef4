/** The one row a query reads (the first, when it reads more), mapped; undefined when it reads none. */
import type { Queryable } from "./database.js";

export async function queryOne<R, T>(
  q: Queryable,
  sql: string,
  params: readonly unknown[],
  map: (row: R) => T,
): Promise<T | undefined> {
  const res = await q.query<R>(sql, params);
  const row = res.rows[0];
  return row === undefined ? undefined : map(row);
}
