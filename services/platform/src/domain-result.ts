/**
 * The outcome of a pure domain rule, shared by every service's domain: failures are values carrying a
 * stable partner-facing code and, when one field is at fault, its name, so handlers map
 * them without catching exceptions.
 *
 * Each service declares the union of its reasons (`LedgerReason`, `PricingReason`, …, exported by its
 * `./reasons` entry point) and types its failures with it, so a code no service declares does not compile;
 * the gateway maps every declared reason to an HTTP status in one exhaustive table
 * (gateway/src/http/error-map.ts).
 */
export interface DomainError<R extends string = string> {
  readonly code: R;
  readonly message: string;
  readonly field?: string;
}

export type Result<T, E = DomainError> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });

export const fail = <R extends string>(
  code: R,
  message: string,
  field?: string,
): Result<never, DomainError<R>> => ({
  ok: false,
  error: field === undefined ? { code, message } : { code, message, field },
});

/** Reasons the shared RPC layer itself answers with, whatever the service (platform/src/rpc, database). */
export const PLATFORM_REASONS = ["INVALID_FIELD", "SERVICE_UNAVAILABLE"] as const;
export type PlatformReason = (typeof PLATFORM_REASONS)[number];
