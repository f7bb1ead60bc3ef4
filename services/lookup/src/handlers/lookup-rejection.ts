import { rejection as reject } from "@payouts/platform/rpc/rejection";
import { Code, type ConnectError } from "@payouts/platform/rpc/service-error";
import type { DomainError, Result } from "../domain/types.js";

export { requirePartnerId } from "@payouts/platform/rpc/rejection";

/**
 * A domain rule violation as the ConnectError the gateway maps by reason. Every lookup rejection is about
 * the request itself (DESIGN.md §4: 400), hence InvalidArgument, except a customer that does not exist for
 * this partner, which is NotFound (404).
 */
export function rejection(error: DomainError): ConnectError {
  return reject(error, error.code === "CUSTOMER_NOT_FOUND" ? Code.NotFound : Code.InvalidArgument);
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

/** A required string of the request, trimmed; MISSING_REQUIRED_FIELD when blank. */
export function requireText(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === "") {
    throw rejection({ code: "MISSING_REQUIRED_FIELD", message: `${field} is required`, field });
  }
  return trimmed;
}
