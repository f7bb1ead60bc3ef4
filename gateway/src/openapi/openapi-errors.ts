/**
 * Error responses of the document. Every code has one HTTP status, from the gateway's one table
 * (`http/error-map.ts`, exhaustive over the declared reasons); each operation lists the codes it can answer and when, and the builder
 * groups them by status into responses whose schema pins `code` to exactly those values.
 */
import { documentedStatus } from "../http/error-map.js";
import { headerRef } from "./openapi-components.js";
import type { Example, Header, Reference, Response } from "./openapi-types.js";
import { schemaRef } from "./schema-ref.js";

/** A code an operation may answer, when, and (only where it differs from the table's) its status. */
export type ErrorCase = readonly [code: string, when: string, status?: number];

export const AUTH_CASE: ErrorCase = [
  "AUTHENTICATION_REQUIRED",
  "the Authorization header is missing or malformed, or the credentials are wrong or revoked",
];
/** Failed-login throttling (gateway/src/auth/credential-verifier.ts), before any secret is checked. */
export const AUTH_THROTTLE_CASE: ErrorCase = [
  "RATE_LIMIT_EXCEEDED",
  "too many failed authentications from this address; retry after `Retry-After` seconds (a secret this gateway accepted recently is not held back)",
];
/** The gateway's cap on credential checks running and waiting at once (AUTH_MAX_CONCURRENT_CHECKS). */
export const AUTH_BUSY_CASE: ErrorCase = [
  "SERVICE_UNAVAILABLE",
  "the gateway is already checking as many credentials as it allows; nothing was checked, retry after `Retry-After` seconds",
];
export const INTERNAL_CASE: ErrorCase = [
  "INTERNAL",
  "an unexpected failure; nothing internal is disclosed — quote the request_id",
];
export const UNAVAILABLE_CASE: ErrorCase = [
  "SERVICE_UNAVAILABLE",
  "a service or database the request needs is down or unreachable; nothing was done — retry after `Retry-After` seconds",
];
/** What the JSON edge answers for any route with a body, before the route's own checks. */
export const JSON_BODY_CASES: readonly ErrorCase[] = [
  ["INVALID_FIELD", "the body is not valid JSON, or not a JSON object"],
  [
    "INVALID_FIELD",
    "a string or key in the body contains a NUL character or an unpaired surrogate (`field` names it), or the body nests deeper than 64 levels",
  ],
  ["INVALID_FIELD", "`Content-Type` is not `application/json`", 415],
  ["INVALID_FIELD", "the body is larger than 256 KiB (2 MiB where a route takes batch items)", 413],
];

const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable: idempotency key reused",
  429: "Too many requests",
  500: "Internal error",
  503: "Service unavailable",
};

const STATUS_HEADERS: Readonly<Record<number, Record<string, Reference>>> = {
  401: { "WWW-Authenticate": headerRef("wwwAuthenticate") },
  429: { "Retry-After": headerRef("retryAfter") },
  503: { "Retry-After": headerRef("retryAfter") },
};

export interface ErrorResponseOptions {
  /** Extra response headers by status, e.g. `Idempotent-Replayed` on executePayout's 409. */
  readonly headers?: Readonly<Record<number, Record<string, Header | Reference>>>;
  /** Examples by status. */
  readonly examples?: Readonly<Record<number, Record<string, Example>>>;
}

/** Responses by status for `cases`, each listing its codes with when they happen. */
export function errorResponses(
  cases: readonly ErrorCase[],
  options: ErrorResponseOptions = {},
): Record<string, Response> {
  const byStatus = new Map<number, ErrorCase[]>();
  for (const errorCase of cases) {
    const status = statusOf(errorCase);
    byStatus.set(status, [...(byStatus.get(status) ?? []), errorCase]);
  }
  const responses: Record<string, Response> = {};
  for (const [status, group] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = errorResponse(status, group, options);
  }
  return responses;
}

/** What the edge answers for any route, before the route's own checks. */
export const URL_TEXT_CASE: ErrorCase = [
  "INVALID_FIELD",
  "a path or query parameter contains a NUL character (`field` names it)",
];

/**
 * What an authenticated partner operation can answer besides its own errors: the edge's (a NUL in the URL,
 * and the JSON edge's when it reads a body), 401, 429, 500 and 503 (a dependency down, or too many
 * credential checks in progress).
 */
export function partnerCommonErrors(op: {
  readonly method: string;
  readonly body?: unknown;
}): readonly ErrorCase[] {
  return [
    URL_TEXT_CASE,
    // Every POST, PUT and PATCH goes through the JSON edge, whether the route reads a body or not.
    ...(op.body || (op.method !== "GET" && op.method !== "DELETE") ? JSON_BODY_CASES : []),
    AUTH_CASE,
    AUTH_THROTTLE_CASE,
    INTERNAL_CASE,
    UNAVAILABLE_CASE,
    AUTH_BUSY_CASE,
  ];
}

function statusOf([code, , status]: ErrorCase): number {
  const found = status ?? documentedStatus(code);
  if (found === undefined) throw new Error(`error code ${code} has no documented status`);
  return found;
}

function errorResponse(status: number, group: readonly ErrorCase[], options: ErrorResponseOptions): Response {
  const codes = [...new Set(group.map(([code]) => code))];
  const lines = group.map(([code, when]) => `- \`${code}\`: ${when}`);
  const examples = options.examples?.[status];
  return {
    description: `${STATUS_TEXT[status] ?? "Error"}. Error body with one of these codes:\n\n${lines.join("\n")}`,
    headers: {
      "X-Request-Id": headerRef("requestId"),
      ...STATUS_HEADERS[status],
      ...options.headers?.[status],
    },
    content: {
      "application/json": {
        // The second part only narrows `code`; ErrorBody itself closes the object.
        schema: {
          allOf: [
            schemaRef("ErrorBody"),
            {
              type: "object",
              properties: { code: { type: "string", enum: codes } },
              additionalProperties: true,
            },
          ],
        },
        ...(examples ? { examples } : {}),
      },
    },
  };
}
