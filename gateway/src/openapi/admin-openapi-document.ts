/**
 * The OpenAPI 3.1 document of the admin API (the admin listener), built from ADMIN_OPERATIONS: the same
 * shapes the admin routes validate with and render. Served at `GET /admin/openapi.json`, behind the token.
 */

import type { ApiOperation } from "../api/operation.js";
import { ADMIN_OPERATIONS } from "../operations/admin/admin-operations.js";
import { documentHead } from "./document-head.js";
import { buildPaths, SchemaRegistry } from "./openapi-builder.js";
import { OPENAPI_HEADERS, OPENAPI_PARAMETERS } from "./openapi-components.js";
import {
  type ErrorCase,
  INTERNAL_CASE,
  JSON_BODY_CASES,
  UNAVAILABLE_CASE,
  URL_TEXT_CASE,
} from "./openapi-errors.js";
import type { OpenApiDocument, Tag } from "./openapi-types.js";

const DESCRIPTION = `The operators' API of the payout platform, on the internal admin listener (port 8081 by default; never expose it publicly).

**Authentication.** Every route except \`/healthz\`, \`/readyz\`, \`/metrics\` and sign-in needs credentials: \`Authorization: Bearer <token>\` of a machine credential (\`payouts machine-credentials add\`, or the static \`ADMIN_TOKEN\`, named \`admin-token\`), or the \`payouts_admin_session\` cookie of a signed-in operator (\`POST /admin/session\`). Without them the answer is 401 \`AUTHENTICATION_REQUIRED\` with \`WWW-Authenticate: Bearer\`. A request authenticated by the cookie that changes state (not GET or HEAD) must carry \`X-Requested-With\` (any value), else 403 \`CSRF_HEADER_REQUIRED\`.

**Roles.** Each credential has a role: viewer < operator < finance < admin, each allowed everything the ones before it are. Each operation names the least role it needs in \`x-required-role\` and its description; a caller with a lower one gets 403 \`ROLE_FORBIDDEN\` before anything is done.

**Money.** Decimals are accepted as JSON numbers (read digit for digit from the request's text) or decimal strings, and answered as strings at full precision.

**Errors.** The partner API's error body: \`{"code", "message", "field"?, "request_id"}\`; \`request_id\` equals the \`X-Request-Id\` response header.`;

const TAGS: readonly Tag[] = [
  { name: "Partners", description: "Partners and their pricing." },
  { name: "Apps", description: "Partner credentials and client secret rotation." },
  { name: "Balance", description: "Prepaid balances." },
  { name: "Transactions", description: "Refunds and failures of payouts." },
  {
    name: "Approvals",
    description:
      "Four-eyes approvals: a credit above the threshold, a refund and a forced failure wait (202) until a second operator approves them.",
  },
  { name: "Sandbox", description: "The sandbox rail's controls." },
  {
    name: "Reconciliation",
    description:
      "The ledger against the rail's settlement records, per rail and UTC day: runs, breaks, resolutions.",
  },
  { name: "Reference data", description: "FX rates and corridors." },
  {
    name: "Console",
    description:
      "The operator console's reads across partners and its switches: overview, transaction search and page, webhook deliveries and receivers, partner list, apps, balance history.",
  },
  {
    name: "Audit",
    description:
      "The audit trail: every state-changing admin request, whatever its outcome, in a hash chain that can be checked.",
  },
  { name: "Sessions", description: "Operator sign-in, who is calling, sign-out." },
  { name: "Operations", description: "Probes and metrics (public)." },
  { name: "Documentation", description: "This document." },
];

const ADMIN_AUTH_CASE: ErrorCase = [
  "AUTHENTICATION_REQUIRED",
  "no valid `Authorization: Bearer` machine credential and no live operator session cookie",
];
const OIDC_UNAVAILABLE_CASE: ErrorCase = [
  "SERVICE_UNAVAILABLE",
  "the OpenID Connect provider or the database is unreachable; nothing was done — retry after `Retry-After` seconds",
];
const CSRF_CASE: ErrorCase = [
  "CSRF_HEADER_REQUIRED",
  "authenticated by the session cookie without the `X-Requested-With` header",
];
const roleCase = (op: ApiOperation): ErrorCase => [
  "ROLE_FORBIDDEN",
  `the caller's role is below \`${op.role}\``,
];

const BODY_FIELD_CASE: ErrorCase = [
  "INVALID_FIELD",
  "a body field has the wrong type, length, format or range (`field` names it)",
];
const MISSING_FIELD_CASE: ErrorCase = ["MISSING_REQUIRED_FIELD", "a required body field is absent or blank"];

/** What any admin operation can answer besides its own errors. */
function adminCommonErrors(op: ApiOperation): readonly ErrorCase[] {
  const body = op.body
    ? [
        ...JSON_BODY_CASES,
        BODY_FIELD_CASE,
        ...((op.body.required?.length ?? 0) > 0 ? [MISSING_FIELD_CASE] : []),
      ]
    : [];
  // The probes, the metrics and the sign-in options depend on nothing that fails with a 500 (readyz
  // answers 503 itself); sign-in reads a body and the database; the OpenID Connect routes need the provider
  // and the database.
  if (op.public && op.body) return [URL_TEXT_CASE, ...body, INTERNAL_CASE, UNAVAILABLE_CASE];
  if (op.public && op.path.startsWith("/admin/oidc/")) return [URL_TEXT_CASE, OIDC_UNAVAILABLE_CASE];
  if (op.public) return [URL_TEXT_CASE];
  const writes = op.method !== "GET";
  const roles = op.role !== undefined && op.role !== "viewer" ? [roleCase(op)] : [];
  return [
    URL_TEXT_CASE,
    ...body,
    ADMIN_AUTH_CASE,
    ...(writes ? [CSRF_CASE] : []),
    ...roles,
    INTERNAL_CASE,
    UNAVAILABLE_CASE,
  ];
}

export function buildAdminOpenApiDocument(version: string): OpenApiDocument {
  const registry = new SchemaRegistry();
  const paths = buildPaths(ADMIN_OPERATIONS, registry, { commonErrors: adminCommonErrors });
  return {
    ...documentHead({
      title: "Payouts admin API",
      version,
      summary: "Partners, credentials, balances, refunds and reference data, for operators.",
      description: DESCRIPTION,
      servedBy: "The admin listener",
      sandboxPort: 8081,
    }),
    tags: TAGS,
    security: [{ bearerAuth: [] }],
    paths,
    webhooks: {},
    components: {
      schemas: registry.schemas,
      parameters: { requestId: OPENAPI_PARAMETERS.requestId, idempotencyKey: ADMIN_IDEMPOTENCY_KEY },
      headers: {
        ...OPENAPI_HEADERS,
        wwwAuthenticate: {
          description: 'The challenge: `Bearer realm="payouts-admin"`.',
          required: true,
          schema: { type: "string" },
        },
      },
      responses: {},
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "`Authorization: Bearer $ADMIN_TOKEN`, the token the gateway was started with.",
        },
      },
    },
  };
}

const ADMIN_IDEMPOTENCY_KEY = {
  ...OPENAPI_PARAMETERS.idempotencyKey,
  description:
    "A fresh unique value (a UUID) per credit, 1–255 printable ASCII characters (`Idempotency-Key` is accepted instead). The same key and body replay the first answer with `Idempotent-Replayed: true`; the same key with another body is `IDEMPOTENCY_KEY_REUSED`.",
};
