import type { Queryable } from "./database.js";

/**
 * The first row a statement answers, or undefined when it answers none: a lookup by key that found
 * nothing, or an `UPDATE … RETURNING` whose condition matched no row.
 */
export async function firstRow<R>(
  db: Queryable,
  sql: string,
  params?: readonly unknown[],
): Promise<R | undefined> {
  const res = await db.query<R>(sql, params);
  return res.rows[0];
}
