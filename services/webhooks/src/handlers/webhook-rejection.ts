import { Code, type ConnectError, serviceError } from "@payouts/platform/rpc/service-error";
import type { DomainError, Result } from "../domain/result.js";

/** A rule violation about the request itself: InvalidArgument with the domain's code and field. */
export function rejection(error: DomainError): ConnectError {
  return serviceError(error.code, error.message, { field: error.field, code: Code.InvalidArgument });
}

export function valueOrReject<T>(result: Result<T>): T {
  if (!result.ok) throw rejection(result.error);
  return result.value;
}

const PARTNER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Partner ids come from the gateway's authentication; a malformed one is a caller bug. */
export function requirePartnerId(partnerId: string): string {
  if (!PARTNER_ID.test(partnerId)) {
    throw rejection({ code: "INVALID_FIELD", message: "partner_id is required", field: "partner_id" });
  }
  return partnerId;
}

export const configNotFound = (configId: string): ConnectError =>
  serviceError("WEBHOOK_CONFIG_NOT_FOUND", `webhook config ${JSON.stringify(configId)} not found`, {
    code: Code.NotFound,
  });

export const deliveryNotFound = (deliveryId: string): ConnectError =>
  serviceError("DELIVERY_NOT_FOUND", `delivery ${JSON.stringify(deliveryId)} not found`, {
    code: Code.NotFound,
  });
