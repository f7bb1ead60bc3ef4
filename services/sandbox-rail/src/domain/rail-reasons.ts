import { defineReasons } from "@payouts/platform/reasons/define-reasons";

/** Every reason the sandbox rail answers with, its gRPC status and, where fixed, its wording. */
export const RAIL = defineReasons({
  INVALID_FIELD: {},
  MISSING_REQUIRED_FIELD: {
    template: (field: string) => ({ message: `${field} is required`, field }),
  },
  TRANSACTION_NOT_FOUND: {
    status: "NotFound",
    template: (txId: string) => ({ message: `no payout ${txId} was submitted to the rail`, field: "tx_id" }),
  },
  PAYOUT_ALREADY_SETTLED: {
    status: "FailedPrecondition",
    template: (txId: string, outcome: string) => ({
      message: `payout ${txId} was already reported ${outcome}`,
    }),
  },
  PAYOUT_CANCELLED: {
    status: "FailedPrecondition",
    template: (txId: string) => ({ message: `payout ${txId} was cancelled before the rail accepted it` }),
  },
  SANDBOX_CONTROL_DISABLED: {
    status: "FailedPrecondition",
    template: () => ({ message: "sandbox controls are disabled in production mode" }),
  },
});

export const RAIL_REASONS = RAIL.codes;

export type RailReason = (typeof RAIL_REASONS)[number];
