/**
 * Rule violations of the pricing domain, with the stable partner-facing codes of the partner API. Handlers map
 * `code` to a ConnectError reason; the gateway maps the reason to the HTTP status.
 */
import type { DomainError, Result as DomainResult } from "@payouts/platform/domain-result";
import { defineReasons } from "@payouts/platform/reasons/define-reasons";

/** Every reason the pricing service answers with: each about the request itself (InvalidArgument). */
export const PRICING = defineReasons({
  INVALID_FIELD: {},
  MISSING_REQUIRED_FIELD: {},
  INVALID_AMOUNT: {},
  INVALID_CURRENCY: {},
  UNSUPPORTED_COUNTRY: {},
  AMOUNT_OUT_OF_RANGE: {},
});

export const PRICING_REASONS = PRICING.codes;

export type PricingReason = (typeof PRICING_REASONS)[number];

export type PricingError = DomainError<PricingReason>;

export type Result<T> = DomainResult<T, PricingError>;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const fail = PRICING.fail;
