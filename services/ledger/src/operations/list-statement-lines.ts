/**
 * One page of a partner's statement feed: the lines after `after`, at most `limit`, with their running
 * balances, and the cursor to continue from.
 */
import type { Queryable } from "@payouts/platform/database/database";
import {
  decodeFeedCursor,
  encodeFeedCursor,
  feedPageSize,
  isAfter,
  type StatementLine,
  statementLines,
} from "../domain/statement-lines.js";
import { feedEntries } from "../store/statement-store.js";

export interface StatementPage {
  readonly lines: StatementLine[];
  /** Position of the last line; `after` when no line is new; undefined when there is none yet. */
  readonly nextCursor: string | undefined;
}

export async function listStatementLines(
  db: Queryable,
  request: { partnerId: string; after: string; limit: number },
): Promise<StatementPage> {
  const limit = feedPageSize(request.limit);
  const from = request.after ? decodeFeedCursor(request.after) : undefined;
  // The entry at `from` comes back too (its fee line may be unread), so one more entry than lines asked
  // for always yields enough lines.
  const { entries, opening } = await feedEntries(db, request.partnerId, from, limit + 1);
  const lines = statementLines(entries, opening)
    .filter((line) => !from || isAfter(line.position, from))
    .slice(0, limit);
  const last = lines.at(-1);
  return { lines, nextCursor: last ? encodeFeedCursor(last.position) : request.after || undefined };
}
