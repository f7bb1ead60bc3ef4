import { rejection as reject } from "@payouts/platform/rpc/rejection";
import { Code, type ConnectError } from "@payouts/platform/rpc/service-error";
import type { DomainError, LookupReason, Result } from "../domain/types.js";

export { requirePartnerId } from "@payouts/platform/rpc/rejection";

/**
 * A domain rule violation as the ConnectError the gateway maps by reason. Every lookup rejection is about
 * the request itself (HTTP 400), hence InvalidArgument unless the caller says otherwise.
 */
export function rejection(error: DomainError, code: Code = Code.InvalidArgument): ConnectError {
  return reject<LookupReason>(error, code);
}

/** The value of a domain result, or its error thrown as a rejection. */
export function valueOrReject<T>(result: Result<T>): T {
  if (!result.ok) throw rejection(result.error);
  return result.value;
}

/**
 * InvalidArgument (400) when the customer is named in a lookup or decodeQr body: the partner API answers a bad
 * lookupPaymentCode request 400, and CUSTOMER_NOT_FOUND is one of its 400 codes. NotFound
 * (404) only where the customer is the resource asked for (GET /customers/{customer_id}).
 */
export const customerNotFound = (customerId: string, code: Code = Code.InvalidArgument): ConnectError =>
  rejection(
    {
      code: "CUSTOMER_NOT_FOUND",
      message: `No customer ${customerId}: register the sender with POST /customers first`,
      field: "customer_id",
    },
    code,
  );

/** A required string of the request, trimmed; MISSING_REQUIRED_FIELD when blank. */
export function requireText(value: string, field: string): string {
  const trimmed = value.trim();
  if (trimmed === "") {
    throw rejection({ code: "MISSING_REQUIRED_FIELD", message: `${field} is required`, field });
  }
  return trimmed;
}
