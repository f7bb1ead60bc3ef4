/** The shared domain outcome type (one definition for every service). */
export { type DomainError, fail, ok, type Result } from "@payouts/platform/domain-result";
