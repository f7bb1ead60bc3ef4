import { Code, ConnectError } from "@connectrpc/connect";
import { isConnectionFailure } from "@payouts/platform/database/connection-failure";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";

/**
 * The one table from a service's ErrorDetail.reason to the partner-facing HTTP status. The reason
 * itself is the partner-facing `code`. Reasons not listed fall back on the gRPC code below:
 * CUSTOMER_NOT_FOUND is 400 when a request body names the customer (lookup, decodeQr) and 404 for
 * GET /customers/{customer_id}, as the lookup service says with InvalidArgument or NotFound.
 */
const STATUS_BY_REASON: Readonly<Record<string, number>> = {
  AUTHENTICATION_REQUIRED: 401,
  TRANSACTION_NOT_FOUND: 404,
  PARTNER_NOT_FOUND: 404,
  APP_NOT_FOUND: 404,
  WEBHOOK_CONFIG_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  NOT_FOUND: 404,
  TRANSACTION_NOT_PENDING: 409,
  DELIVERY_IN_PROGRESS: 409,
  WEBHOOK_CONFIG_INACTIVE: 409,
  WEBHOOK_CONFIG_LIMIT_REACHED: 409,
  TRANSACTION_NOT_REFUNDABLE: 409,
  TRANSACTION_NOT_PROCESSING: 409,
  PAYOUT_ALREADY_SETTLED: 409,
  PAYOUT_ACCEPTED_BY_RAIL: 409,
  PAYOUT_CANCELLED: 409,
  MISSING_IDEMPOTENCY_KEY: 400,
  QUOTE_REQUIRED: 409,
  QUOTE_EXPIRED: 409,
  INSUFFICIENT_FUNDS: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMIT_EXCEEDED: 429,
  INVALID_CURRENCY: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  UNSUPPORTED_COUNTRY: 400,
  UNKNOWN_DESTINATION: 400,
  USE_DECODE_QR: 400,
  INVALID_QR: 400,
  SENDER_NOT_ACCEPTED: 400,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
};

const STATUS_BY_GRPC_CODE: Partial<Record<Code, number>> = {
  [Code.InvalidArgument]: 400,
  [Code.OutOfRange]: 400,
  [Code.FailedPrecondition]: 409,
  [Code.Aborted]: 409,
  [Code.AlreadyExists]: 409,
  [Code.NotFound]: 404,
  [Code.ResourceExhausted]: 429,
  [Code.Unauthenticated]: 401,
  [Code.PermissionDenied]: 403,
  [Code.Unavailable]: 503,
  [Code.DeadlineExceeded]: 503,
};

export function httpStatusFor(reason: string, code: Code): number {
  return STATUS_BY_REASON[reason] ?? STATUS_BY_GRPC_CODE[code] ?? 500;
}

/** What a 503 tells the caller to wait before retrying, when the dependency itself said nothing. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * Failures that mean a dependency is down or unreachable rather than that the request or the code is
 * wrong: answered 503 SERVICE_UNAVAILABLE with Retry-After, and logged as a warning.
 * - a service call that never got an answer: gRPC UNAVAILABLE (refused, reset, not listening),
 *   DEADLINE_EXCEEDED, or ABORTED / CANCELED from the transport (the service process died during the
 *   call: "read ECONNRESET", an HTTP/2 stream reset with CANCEL), without an ErrorDetail (a service's own
 *   documented failures, such as IDEMPOTENCY_KEY_IN_USE, carry one);
 * - PostgreSQL unreachable or going away, or a socket that failed: the database adapter's own rule
 *   (`isConnectionFailure`, services/platform/src/database/connection-failure.ts), one place for both.
 */
const UNAVAILABLE_GRPC_CODES: ReadonlySet<Code> = new Set([
  Code.Unavailable,
  Code.DeadlineExceeded,
  Code.Aborted,
  Code.Canceled,
]);

export function isDependencyUnavailable(error: unknown): boolean {
  // Errors may arrive wrapped (`cause`) by the layer that met them; a few levels are enough.
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    if (e instanceof ConnectError) {
      return UNAVAILABLE_GRPC_CODES.has(e.code) && errorDetailOf(e) === undefined;
    }
    if (isConnectionFailure(e)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
