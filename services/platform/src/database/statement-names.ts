/**
 * Statements with parameters are named, so each connection has PostgreSQL parse and plan one once and
 * afterwards only binds and executes it (node-postgres sends the Parse message only the first time a
 * connection sees the name). Measured on the ledger's row-lock read (BEGIN, the read, COMMIT; 3 × 3,000
 * runs alternated on the shared 2-core machine): PostgreSQL backend CPU 360–447 µs per run unnamed,
 * 110–137 µs named; node's own 194–274 → 111–162 µs.
 *
 * Not named: statements that project `*` (`SELECT *`, `t.*`, `RETURNING *`): a prepared plan's result type
 * is fixed, so a column added by a migration while a process runs would make them fail ("cached plan must
 * not change result type") until the connection is replaced. Beyond `max` distinct texts, statements run
 * unnamed as before (dynamic SQL cannot fill the server's memory with prepared statements).
 *
 * Not named either: statements that start with PLANNED_PER_CALL (below).
 *
 * A connection pooler in front of PostgreSQL must be session-pooled or support protocol-level prepared
 * statements (PgBouncer ≥ 1.21 with max_prepared_statements).
 */
const STAR_PROJECTION = /(?:\bSELECT|\bRETURNING|,)\s*(?:[\w"]+\.)?\*\s*(?:,|\bFROM\b|\)|$)/i;

/**
 * A statement whose text starts with this comment is never prepared under a name, so PostgreSQL plans it
 * at every call with its parameters' values and the table's current size. For statements whose plan must
 * follow a table that can grow from a few rows to a million in seconds (a queue): a named statement
 * switches to a generic plan after five calls and keeps it, whatever the table becomes, until ANALYZE
 * runs; one built over a few dozen rows scans the whole table. The price is planning on every call.
 */
export const PLANNED_PER_CALL = "/* planned per call */";

/** The name of `sql` (the same for the same text, every time), or undefined when it runs unnamed. */
export type StatementNames = (sql: string) => string | undefined;

export function createStatementNames(max = 1_000): StatementNames {
  const names = new Map<string, string | null>();
  return (sql) => {
    const known = names.get(sql);
    if (known !== undefined) return known ?? undefined;
    if (names.size >= max) return undefined;
    const name =
      STAR_PROJECTION.test(sql) || sql.startsWith(PLANNED_PER_CALL) ? null : `payouts_${names.size + 1}`;
    names.set(sql, name);
    return name ?? undefined;
  };
}
