import { Code, type ConnectError, serviceError } from "@payouts/platform/rpc/service-error";
import type { PricingError, Result } from "../domain/pricing-error.js";

/**
 * A domain rule violation as the ConnectError the gateway maps by reason. Every pricing rejection is about
 * the request itself (DESIGN.md §4: all 400), hence InvalidArgument whatever the reason.
 */
export function rejection(error: PricingError): ConnectError {
  return serviceError(error.code, error.message, { field: error.field, code: Code.InvalidArgument });
}

/** The value of a domain result, or its error thrown as a rejection. */
export function valueOrReject<T>(result: Result<T>): T {
  if (!result.ok) throw rejection(result.error);
  return result.value;
}

const PARTNER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Partner ids come from the gateway; a malformed one is a caller bug worth a clear answer. */
export function requirePartnerId(partnerId: string): string {
  if (!PARTNER_ID.test(partnerId)) {
    throw rejection({ code: "INVALID_FIELD", message: "partner_id is required", field: "partner_id" });
  }
  return partnerId;
}
