/** How an audited request ended, as the audit list groups it. `unknown`: started, and no answer was recorded. */
export const AUDIT_OUTCOMES = ["succeeded", "refused", "failed", "unknown"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export function outcomeOf(status: number | null): AuditOutcome {
  if (status === null) return "unknown";
  return status < 400 ? "succeeded" : status < 500 ? "refused" : "failed";
}
