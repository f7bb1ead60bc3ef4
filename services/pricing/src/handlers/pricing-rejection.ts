/**
 * Every pricing rejection is about the request itself (all HTTP 400), hence InvalidArgument
 * whatever the reason; only the pricing service's own reasons compile.
 */
import { rejection as reject } from "@payouts/platform/rpc/rejection";
import type { Code, ConnectError } from "@payouts/platform/rpc/service-error";
import type { PricingError, PricingReason } from "../domain/pricing-error.js";

export { requirePartnerId, valueOrReject } from "@payouts/platform/rpc/rejection";

export const rejection = (error: PricingError, code?: Code): ConnectError =>
  reject<PricingReason>(error, code);
