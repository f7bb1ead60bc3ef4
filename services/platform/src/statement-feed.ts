/**
 * The limits of the statement feed (the ledger's ListStatementLines, the partner route
 * `GET /balance/entries`): line types and page sizes, read by the ledger's domain and the gateway's
 * OpenAPI shape. Extend the types by appending; consumers treat a type they do not know as a signed amount
 * with no further meaning.
 */
export const STATEMENT_LINE_TYPES = ["payout", "fee", "credit", "reversal", "refund", "adjustment"] as const;
export type StatementLineType = (typeof STATEMENT_LINE_TYPES)[number];

export const DEFAULT_FEED_PAGE_SIZE = 100;
export const MAX_FEED_PAGE_SIZE = 1000;
