/** The kinds of reconciliation break, in the order a day's breaks are listed. Pure: no I/O. */
export const BREAK_TYPES = [
  "missing_at_rail",
  "missing_in_ledger",
  "amount_mismatch",
  "status_mismatch",
  "duplicate_at_rail",
] as const;
export type BreakType = (typeof BREAK_TYPES)[number];

export function isBreakType(value: string): value is BreakType {
  return (BREAK_TYPES as readonly string[]).includes(value);
}
