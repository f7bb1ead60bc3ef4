import { Code, type ConnectError, serviceError } from "@payouts/platform/rpc/service-error";
import type { DomainError, Result } from "../domain/types.js";

/**
 * A domain rule violation as the ConnectError the gateway maps by reason. Every lookup rejection is about
 * the request itself (DESIGN.md §4: 400), hence InvalidArgument, except a customer that does not exist for
 * this partner, which is NotFound (404).
 */
export function rejection(error: DomainError): ConnectError {
  const code = error.code === "CUSTOMER_NOT_FOUND" ? Code.NotFound : Code.InvalidArgument;
  return serviceError(error.code, error.message, { field: error.field, code });
}

/** The value of a domain result, or its error thrown as a rejection. */
export function valueOrReject<T>(result: Result<T>): T {
  if (!result.ok) throw rejection(result.error);
  return result.value;
}

export const customerNotFound = (customerId: string): ConnectError =>
  rejection({
    code: "CUSTOMER_NOT_FOUND",
    message: `No customer ${customerId}: register the sender with POST /customers first`,
    field: "customer_id",
  });

const PARTNER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Partner ids come from the gateway; a malformed one is a caller bug worth a clear answer. */
export function requirePartnerId(partnerId: string): string {
  if (!PARTNER_ID.test(partnerId)) {
    throw rejection({ code: "INVALID_FIELD", message: "partner_id is required", field: "partner_id" });
  }
  return partnerId;
}

/** A required string of the request, trimmed; MISSING_REQUIRED_FIELD when blank. */
export function requireText(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === "") {
    throw rejection({ code: "MISSING_REQUIRED_FIELD", message: `${field} is required`, field });
  }
  return trimmed;
}
