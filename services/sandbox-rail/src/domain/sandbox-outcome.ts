/**
 * Which outcome the sandbox rail reports for a payout, so partners can rehearse failures without an
 * operator: destinations ending in "9999" or containing "fail" (any case) fail; everything else succeeds.
 * Both patterns survive every country's destination format (account numbers, phones, Pix e-mails,
 * aliases), and README.md lists examples.
 */
export type RailOutcome = "SUCCESS" | "FAILED";

export interface SandboxVerdict {
  readonly outcome: RailOutcome;
  readonly reason: string;
}

export const FAILING_SUFFIX = "9999";
export const FAILING_WORD = "fail";

export function sandboxVerdict(paymentDestination: string): SandboxVerdict {
  if (paymentDestination.endsWith(FAILING_SUFFIX)) {
    return { outcome: "FAILED", reason: "sandbox: destination account is closed" };
  }
  if (paymentDestination.toLowerCase().includes(FAILING_WORD)) {
    return { outcome: "FAILED", reason: "sandbox: destination rejected the payout" };
  }
  return { outcome: "SUCCESS", reason: "" };
}

export function isRailOutcome(value: string): value is RailOutcome {
  return value === "SUCCESS" || value === "FAILED";
}

/** Delay before the next callback attempt: 1 s doubling to at most 60 s. */
export function callbackBackoffMs(attempts: number): number {
  return Math.min(1_000 * 2 ** Math.max(0, attempts - 1), 60_000);
}
