/**
 * Rule violations of the pricing domain, with the stable partner-facing codes of the partner API. Handlers map
 * `code` to a ConnectError reason; the gateway maps the reason to the HTTP status.
 */
import {
  type DomainError,
  type Result as DomainResult,
  fail as domainFail,
} from "@payouts/platform/domain-result";

/** Every reason the pricing service answers with. */
export const PRICING_REASONS = [
  "INVALID_FIELD",
  "MISSING_REQUIRED_FIELD",
  "INVALID_AMOUNT",
  "INVALID_CURRENCY",
  "UNSUPPORTED_COUNTRY",
  "AMOUNT_OUT_OF_RANGE",
] as const;

export type PricingReason = (typeof PRICING_REASONS)[number];

export type PricingError = DomainError<PricingReason>;

export type Result<T> = DomainResult<T, PricingError>;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const fail = <T = never>(code: PricingReason, message: string, field?: string): Result<T> =>
  domainFail(code, message, field);
