/** Every reason the sandbox rail answers with. */
export const RAIL_REASONS = [
  "INVALID_FIELD",
  "MISSING_REQUIRED_FIELD",
  "TRANSACTION_NOT_FOUND",
  "PAYOUT_ALREADY_SETTLED",
  "PAYOUT_CANCELLED",
] as const;

export type RailReason = (typeof RAIL_REASONS)[number];
