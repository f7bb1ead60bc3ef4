/** The formats a statement is served in: the `format` values of the statement routes. */
export const STATEMENT_FORMATS = ["json", "csv", "camt053"] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];
