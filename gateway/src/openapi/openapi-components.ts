/**
 * Reusable parameters, headers and security schemes of the partner API, and the small builders the path
 * modules use to refer to them.
 */

import { DecimalPlaces } from "../api/schema.js";
import type {
  Example,
  Header,
  Parameter,
  Reference,
  RequestBody,
  Response,
  SecurityScheme,
} from "./openapi-types.js";
import { schemaRef } from "./schema-ref.js";

export const OPENAPI_PARAMETERS = {
  dp: {
    name: "dp",
    in: "query",
    description:
      "Decimal places of USD amounts and fees in the response (`amount_usd`, `fee`, `percentage_fee`, `fixed_fee`, `total_usd`, `balance_usd`), rounded half up. Rounding affects the response only: stored values and balance debits keep full precision, so with the default a sub-cent fee shows as 0.00. `exchange_rate` always has 10 decimals; local amounts use the currency's ISO 4217 minor units. Other values → 400 `INVALID_FIELD` (`field` = `dp`).",
    required: false,
    schema: { ...DecimalPlaces },
  },
  requestId: {
    name: "X-Request-Id",
    in: "header",
    description:
      "Your id for this request, echoed in the `X-Request-Id` response header and in error bodies. Used when it is 1–128 characters of `[A-Za-z0-9._:-]`; any other value is not refused but replaced by one the gateway generates (`req_…`), so the schema constrains nothing.",
    required: false,
    schema: { type: "string" },
  },
  idempotencyKey: {
    name: "X-Idempotency-Key",
    in: "header",
    description:
      "A fresh unique value (a UUID) per payout, 1–255 printable ASCII characters (a quoted structured-field string is unquoted). The IETF draft's `Idempotency-Key` header is accepted instead. Retrying with the same key and the same body (and `dp`) returns the first outcome with `Idempotent-Replayed: true`, whether it was a success or a business refusal (409); the same key with another body is `IDEMPOTENCY_KEY_REUSED`. Keys are kept for 30 days by default (at least 24 hours).",
    required: true,
    schema: { type: "string", minLength: 1, maxLength: 255, pattern: "^[\\x20-\\x7e]{1,255}$" },
    example: "6f1c2a9e-8b7d-4e3f-a1b2-c3d4e5f60718",
  },
} satisfies Record<string, Parameter>;

export const OPENAPI_HEADERS = {
  requestId: {
    description: "The request's id: yours when `X-Request-Id` was usable, else generated. On every response.",
    required: true,
    schema: { type: "string" },
  },
  retryAfter: {
    description: "Seconds to wait before retrying.",
    required: true,
    schema: { type: "integer", minimum: 0 },
  },
  wwwAuthenticate: {
    description:
      'The challenge: `Basic realm="payouts", charset="UTF-8"` for partner credentials, `Bearer realm="payouts-admin"` on the admin listener, `RailSignature realm="payout-rail"` for the payout rail\'s callback.',
    required: true,
    schema: { type: "string" },
  },
  idempotentReplayed: {
    description: "`true` when this answer is the stored outcome of an earlier request with the same key.",
    schema: { type: "string", enum: ["true"] },
  },
} satisfies Record<string, Header>;

export const OPENAPI_SECURITY_SCHEMES = {
  basicAuth: {
    type: "http",
    scheme: "basic",
    description:
      "`Authorization: Basic base64(client_id:client_secret)` with the credentials of one of your apps (issued by operations; the secret is shown once). Failure → 401 `AUTHENTICATION_REQUIRED` with `WWW-Authenticate: Basic`; repeated failures → 429 `RATE_LIMIT_EXCEEDED` with `Retry-After`.",
  },
  receiverBasicAuth: {
    type: "http",
    scheme: "basic",
    description:
      "Outbound notifications only: when the webhook config has `basic_auth`, the service sends `Authorization: Basic base64(username:password)` to your receiver.",
  },
} satisfies Record<string, SecurityScheme>;

export const parameterRef = (name: keyof typeof OPENAPI_PARAMETERS): Reference => ({
  $ref: `#/components/parameters/${name}`,
});

export const headerRef = (name: keyof typeof OPENAPI_HEADERS): Reference => ({
  $ref: `#/components/headers/${name}`,
});

/** Parameters every operation takes, before its own. */
export const COMMON_PARAMETERS: readonly Reference[] = [parameterRef("requestId")];

/** A required JSON request body of schema `schema`. */
export function jsonBody(schema: string, examples?: Record<string, Example>): RequestBody {
  return {
    required: true,
    content: { "application/json": { schema: schemaRef(schema), ...(examples ? { examples } : {}) } },
  };
}

/** A JSON success response of schema `schema`, with `X-Request-Id` and any `headers` given. */
export function jsonResponse(
  description: string,
  schema: string,
  examples?: Record<string, Example>,
  headers: Record<string, Header | Reference> = {},
): Response {
  return {
    description,
    headers: { "X-Request-Id": headerRef("requestId"), ...headers },
    content: { "application/json": { schema: schemaRef(schema), ...(examples ? { examples } : {}) } },
  };
}
