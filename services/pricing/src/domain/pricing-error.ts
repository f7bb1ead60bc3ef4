/**
 * Rule violations of the pricing domain, with the stable partner-facing codes of DESIGN.md §4. Handlers map
 * `code` to a ConnectError reason; the gateway maps the reason to the HTTP status.
 */
import type { DomainError, Result as DomainResult } from "@payouts/platform/domain-result";

export type PricingError = DomainError;

export type Result<T> = DomainResult<T>;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const fail = <T = never>(code: string, message: string, field?: string): Result<T> => ({
  ok: false,
  error: field === undefined ? { code, message } : { code, message, field },
});
