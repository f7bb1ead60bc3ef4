/**
 * One SQL statement assembled from parts, so that what belongs together costs one database round trip:
 * a write set (`WITH a AS (INSERT …), b AS (UPDATE … RETURNING …) SELECT … FROM b`) or a read that takes its
 * row locks in a fixed order. Each store contributes the parts of its own tables; the values are numbered
 * parameters (never text spliced into SQL).
 *
 * What PostgreSQL guarantees for such a statement, and what the parts here rely on:
 * - every data-modifying part runs exactly once, to completion, whether or not the main query reads it;
 * - all parts see one snapshot and none sees another part's rows, so every value a part writes is
 *   computed before the statement (no part reads what another writes);
 * - constraints, foreign keys and AFTER triggers work as for separate statements (checked at the end of
 *   the statement; DEFERRED ones at commit), and the statement is atomic: it applies all or nothing;
 * - a plain SELECT part runs only when the main query reads it: row locks (`FOR UPDATE`) are therefore taken
 *   by parts the main query reads, and one lock is taken before another by making the second part's
 *   condition depend on the first part's row.
 */
import type { Queryable, QueryResult } from "@payouts/platform/database/database";

export class Statement {
  private readonly params: unknown[] = [];
  private readonly parts: string[] = [];

  /** The placeholder of `value` in this statement. */
  p(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  /** Adds the part `name AS (sql)`; returns `name`. */
  with(name: string, sql: string, materialized = false): string {
    this.parts.push(`${name} AS ${materialized ? "MATERIALIZED " : ""}(${sql})`);
    return name;
  }

  get isEmpty(): boolean {
    return this.parts.length === 0;
  }

  /** Runs the parts with `main` as the main query. */
  run<R>(q: Queryable, main: string): Promise<QueryResult<R>> {
    const text = this.parts.length === 0 ? main : `WITH ${this.parts.join(",\n")}\n${main}`;
    return q.query<R>(text, this.params);
  }
}
