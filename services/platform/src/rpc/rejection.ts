import type { DomainError, PlatformReason, Result } from "../domain-result.js";
import { Code, type ConnectError, serviceError } from "./service-error.js";

/**
 * A domain rule violation as the ConnectError the gateway maps by reason. Rejections are about the
 * request itself (400) unless the caller says otherwise (e.g. NotFound for an unknown resource).
 */
export function rejection<R extends string = never>(
  error: DomainError<NoInfer<R>>,
  code: Code = Code.InvalidArgument,
): ConnectError {
  return serviceError<R>(error.code, error.message, { field: error.field, code });
}

/** The value of a domain result, or its error thrown as an InvalidArgument rejection. */
export function valueOrReject<T, R extends string>(result: Result<T, DomainError<R>>): T {
  if (!result.ok) throw rejection<R>(result.error);
  return result.value;
}

const PARTNER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Partner ids come from the gateway's authentication; a malformed one is a caller bug worth a clear answer. */
export function requirePartnerId(partnerId: string): string {
  if (!PARTNER_ID.test(partnerId)) {
    throw rejection<PlatformReason>({
      code: "INVALID_FIELD",
      message: "partner_id is required",
      field: "partner_id",
    });
  }
  return partnerId;
}
