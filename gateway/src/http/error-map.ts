import { Code, ConnectError } from "@connectrpc/connect";
import type { LedgerReason } from "@payouts/ledger/reasons";
import type { LookupReason } from "@payouts/lookup/reasons";
import { isConnectionFailure } from "@payouts/platform/database/connection-failure";
import type { PlatformReason } from "@payouts/platform/domain-result";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import type { PricingReason } from "@payouts/pricing/reasons";
import type { RailReason } from "@payouts/sandbox-rail/reasons";
import type { WebhooksReason } from "@payouts/webhooks/reasons";

/** Codes the gateway answers with itself: authentication, its own checks, stores and edge. */
export const GATEWAY_REASONS = [
  "AUTHENTICATION_REQUIRED",
  "RATE_LIMIT_EXCEEDED",
  "INVALID_FIELD",
  "MISSING_REQUIRED_FIELD",
  "INVALID_AMOUNT",
  "MISSING_IDEMPOTENCY_KEY",
  "PARTNER_NOT_FOUND",
  "APP_NOT_FOUND",
  "APP_REVOKED",
  "SECRET_NOT_FOUND",
  "TOO_MANY_SECRETS",
  "LAST_SECRET",
  "FX_RATE_NOT_FOUND",
  "NOT_FOUND",
  "METHOD_NOT_ALLOWED",
  "NOT_ACCEPTABLE",
  "INVALID_SIGNATURE",
  "STALE_CALLBACK",
  "REQUEST_TIMEOUT",
  "INTERNAL",
  "SERVICE_UNAVAILABLE",
  "CONSOLE_NOT_BUILT",
  "ROLE_FORBIDDEN",
  "CSRF_HEADER_REQUIRED",
  "INVALID_SIGN_IN",
  "OIDC_NOT_CONFIGURED",
  "OIDC_SIGN_IN_FAILED",
] as const;

export type GatewayReason = (typeof GATEWAY_REASONS)[number];

/** Every partner- and operator-facing code: each service's typed union of reasons and the gateway's own. */
export type Reason =
  | GatewayReason
  | PlatformReason
  | LookupReason
  | PricingReason
  | LedgerReason
  | WebhooksReason
  | RailReason;

/** A reason whose status depends on the call, decided by the service's gRPC code (see below). */
const BY_GRPC_CODE = "by gRPC code";

/**
 * The one table from a reason to the HTTP status; the reason itself is the partner-facing `code`. It is
 * exhaustive over `Reason`: a reason a service adds to its union does not compile until it has a status
 * here, and a key no service declares does not compile either.
 * CUSTOMER_NOT_FOUND is 400 when a request body names the customer (lookup, decodeQr) and 404 for
 * GET /customers/{customer_id}, as the lookup service says with InvalidArgument or NotFound.
 */
const STATUS_BY_REASON: { readonly [R in Reason]: number | typeof BY_GRPC_CODE } = {
  INVALID_FIELD: 400,
  MISSING_REQUIRED_FIELD: 400,
  INVALID_AMOUNT: 400,
  INVALID_CURRENCY: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  UNSUPPORTED_COUNTRY: 400,
  INVALID_PAYMENT_METHOD: 400,
  INVALID_DESTINATION_CODE: 400,
  INVALID_DESTINATION: 400,
  UNKNOWN_DESTINATION: 400,
  SENDER_NOT_ACCEPTED: 400,
  USE_DECODE_QR: 400,
  INVALID_QR: 400,
  INVALID_CONFIG: 400,
  INVALID_SIGNATURE: 401,
  STALE_CALLBACK: 401,
  MISSING_IDEMPOTENCY_KEY: 400,
  CUSTOMER_NOT_FOUND: BY_GRPC_CODE,
  AUTHENTICATION_REQUIRED: 401,
  TRANSACTION_NOT_FOUND: 404,
  PARTNER_NOT_FOUND: 404,
  APP_NOT_FOUND: 404,
  SECRET_NOT_FOUND: 404,
  FX_RATE_NOT_FOUND: 404,
  WEBHOOK_CONFIG_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  RECONCILIATION_RUN_NOT_FOUND: 404,
  RECONCILIATION_BREAK_NOT_FOUND: 404,
  UNKNOWN_RAIL: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  NOT_ACCEPTABLE: 406,
  CONSOLE_NOT_BUILT: 404,
  ROLE_FORBIDDEN: 403,
  CSRF_HEADER_REQUIRED: 403,
  INVALID_SIGN_IN: 401,
  OIDC_NOT_CONFIGURED: 404,
  OIDC_SIGN_IN_FAILED: 401,
  REQUEST_TIMEOUT: 408,
  TRANSACTION_NOT_PENDING: 409,
  DELIVERY_IN_PROGRESS: 409,
  WEBHOOK_CONFIG_INACTIVE: 409,
  WEBHOOK_CONFIG_DISABLED_BY_OPERATOR: 409,
  WEBHOOK_CONFIG_LIMIT_REACHED: 409,
  TRANSACTION_NOT_REFUNDABLE: 409,
  TRANSACTION_NOT_PROCESSING: 409,
  PAYOUT_ALREADY_SETTLED: 409,
  PAYOUT_ACCEPTED_BY_RAIL: 409,
  PAYOUT_CANCELLED: 409,
  STATEMENT_DAY_NOT_STARTED: 409,
  STATEMENT_DAY_NOT_CLOSED: 409,
  STATEMENT_REVISION_NOT_FOUND: 404,
  BREAK_ALREADY_RESOLVED: 409,
  SANDBOX_CONTROL_DISABLED: 403,
  APP_REVOKED: 409,
  TOO_MANY_SECRETS: 409,
  LAST_SECRET: 409,
  QUOTE_REQUIRED: 409,
  QUOTE_EXPIRED: 409,
  INSUFFICIENT_FUNDS: 409,
  BALANCE_LIMIT_EXCEEDED: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  RATE_LIMIT_EXCEEDED: 429,
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

/** Whether a service's answer carries a reason this gateway knows (an unknown one is a deployment skew). */
export function isReason(reason: string): reason is Reason {
  return Object.hasOwn(STATUS_BY_REASON, reason);
}

/**
 * The status the API documents a reason with: the table's, and for the one the call decides
 * (CUSTOMER_NOT_FOUND), its request-body status (400); undefined for an undeclared code.
 */
export function documentedStatus(reason: string): number | undefined {
  return isReason(reason) ? httpStatusFor(reason, Code.InvalidArgument) : undefined;
}

/** The status of a reason; for one the table leaves to the call, or an unknown one, the gRPC code's (else 500). */
export function httpStatusFor(reason: string, code: Code): number {
  const status = isReason(reason) ? STATUS_BY_REASON[reason] : BY_GRPC_CODE;
  return status === BY_GRPC_CODE ? (STATUS_BY_GRPC_CODE[code] ?? 500) : status;
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
