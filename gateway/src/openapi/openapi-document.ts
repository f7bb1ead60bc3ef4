/**
 * The OpenAPI 3.1 document of the partner API, written by hand from the gateway's routes
 * and renderers. `test/gateway/openapi-document.test.ts` keeps it honest: every route of the partner listener is
 * here and nothing else, and real responses validate against these schemas.
 */
import { readAppVersion } from "@payouts/platform/app-version";
import type { ApiOperation } from "../api/operation.js";
import { BATCH_OPERATIONS } from "../operations/partner/batch-api.js";
import { CUSTOMER_OPERATIONS } from "../operations/partner/customer-api.js";
import { DAY_TRANSACTION_OPERATIONS } from "../operations/partner/day-transactions-api.js";
import { DOCS_OPERATIONS } from "../operations/partner/docs-api.js";
import { LOOKUP_OPERATIONS } from "../operations/partner/lookup-api.js";
import { QUOTE_OPERATIONS } from "../operations/partner/quote-api.js";
import { railCallback } from "../operations/partner/rail-callback-api.js";
import { STATEMENT_OPERATIONS } from "../operations/partner/statement-api.js";
import { STATEMENT_DAY_OPERATIONS } from "../operations/partner/statement-day-api.js";
import { TRANSACTION_OPERATIONS } from "../operations/partner/transaction-api.js";
import { WEBHOOK_OPERATIONS } from "../operations/partner/webhook-api.js";
import { WEBHOOK_DELIVERY_OPERATIONS } from "../operations/partner/webhook-delivery-api.js";
import { buildAdminOpenApiDocument } from "./admin-openapi-document.js";
import { documentHead } from "./document-head.js";
import { NOTIFICATION_SHAPES } from "./notification-shapes.js";
import { buildPaths, SchemaRegistry } from "./openapi-builder.js";
import { OPENAPI_HEADERS, OPENAPI_PARAMETERS, OPENAPI_SECURITY_SCHEMES } from "./openapi-components.js";
import { partnerCommonErrors } from "./openapi-errors.js";
import type { OpenApiDocument, Tag } from "./openapi-types.js";
import { OUTBOUND_WEBHOOKS } from "./outbound-webhooks.js";

const DESCRIPTION = `Pay out to a typed destination (account number, instant-payment key, phone, till or paybill) or to a merchant or account identifier, priced in USD from a prepaid balance, with signed notifications of the outcome.

**Flow.** \`POST /customers\` once per sender → \`POST /lookupPaymentCode\` (or \`POST /decodeQr\` for a scanned QR) validates the destination and creates a PENDING transaction → \`POST /getQuotation\` with its \`tx_id\` and the amount → \`POST /executePayout\` with a fresh \`X-Idempotency-Key\` → the outcome arrives as a notification (see Webhooks) and in \`GET /transactions/{tx_id}\`. \`POST /previewQuotations\` prices an amount in every supported currency without creating anything.

**Authentication.** Every route except \`/openapi.json\`, \`/docs\` and the rail's callback needs HTTP Basic: \`Authorization: Basic base64(client_id:client_secret)\`. Failure → 401 \`AUTHENTICATION_REQUIRED\` with \`WWW-Authenticate: Basic\`. Repeated failures from one address → 429 \`RATE_LIMIT_EXCEEDED\` with \`Retry-After\`, before any secret is checked; failures from other addresses never hold back yours. An app can hold two secrets at once, so operations can issue you a new one and revoke the old one after you have switched. Data belongs to one partner: another partner's \`tx_id\`, \`customer_id\`, config or delivery id is answered as not found.

**Money.** JSON numbers written with a fixed number of decimals (\`"fee": 0.30\`, not \`0.3\`): USD amounts and fees at \`dp\` decimals (query parameter, 0–10, default 2, rounded half up; other values → 400 \`INVALID_FIELD\`), \`exchange_rate\` always at 10 decimals, local amounts at the currency's ISO 4217 minor units (\`540.00\` BRL, \`2630000\` VND). Rounding affects responses only: stored amounts and balance debits keep full precision, so \`amount_usd + percentage_fee + fixed_fee\` at full precision is what the balance is debited. Amounts in requests may be JSON numbers or decimal strings (\`"1500.50"\`), so you never have to round a double; a JSON number is read from its text, digit for digit. An amount in a request may have at most as many decimals as its currency's ISO 4217 minor units (2 for BRL and USD, 0 for VND): \`100.123\` BRL is 400 \`INVALID_AMOUNT\` naming the field, never rounded.

**Idempotency.** \`executePayout\` needs \`X-Idempotency-Key\` (1–255 printable ASCII characters; a UUID per payout). A retry with the same key and body returns the first outcome with \`Idempotent-Replayed: true\`; the same key with another body → 422 \`IDEMPOTENCY_KEY_REUSED\`; a retry while the first request runs → 409 \`IDEMPOTENCY_KEY_IN_USE\` with \`Retry-After\`. Each transaction is debited at most once whatever the keys.

**Errors.** One body on every route: \`{"code": "INVALID_AMOUNT", "message": "human readable", "field": "amount", "request_id": "req_…"}\`. \`code\` is stable; \`field\` is present only when one field, header or query parameter is at fault; \`request_id\` equals the \`X-Request-Id\` response header that every response carries (send your own \`X-Request-Id\` to correlate). Each operation lists its codes per status; an unknown path is 404 \`NOT_FOUND\` and a method the path does not have is 405 \`METHOD_NOT_ALLOWED\` with \`Allow\`, both before authentication. 500 \`INTERNAL\` discloses nothing: quote the \`request_id\`. 503 \`SERVICE_UNAVAILABLE\` (with \`Retry-After\`) means a service or database the request needs is down or unreachable: retry later, with the same \`X-Idempotency-Key\` for \`executePayout\`.`;

const TAGS: readonly Tag[] = [
  { name: "Payouts", description: "Destinations, QR codes, quotes and execution." },
  { name: "Pricing", description: "Indicative prices, without a transaction." },
  { name: "Transactions", description: "The transaction record and the balance." },
  {
    name: "Batches",
    description: "Bulk payouts: up to 10,000 payouts validated, approved and funded at once.",
  },
  { name: "Customers", description: "Registered senders." },
  { name: "Webhooks", description: "Your notification receivers and their delivery log." },
  {
    name: "Notifications",
    description: "What the service POSTs to your receivers (the `webhooks` section).",
  },
  { name: "Payout rail", description: "Called by the payout provider, not by partners." },
  { name: "Documentation", description: "This document and its HTML rendering." },
];

/** The document for `version` (the platform's version, from the root package.json). */
export function buildOpenApiDocument(version: string): OpenApiDocument {
  const registry = new SchemaRegistry();
  const rules = { commonErrors: partnerCommonErrors };
  const paths = (operations: readonly ApiOperation[]) => buildPaths(operations, registry, rules);
  for (const shape of NOTIFICATION_SHAPES) registry.emit(shape);
  return {
    ...documentHead({
      title: "Payouts partner API",
      version,
      summary: "Destination lookup, pricing, idempotent payouts and signed webhooks.",
      description: DESCRIPTION,
      servedBy: "The gateway",
      sandboxPort: 8080,
    }),
    tags: TAGS,
    security: [{ basicAuth: [] }],
    paths: {
      ...paths(LOOKUP_OPERATIONS),
      ...paths(CUSTOMER_OPERATIONS),
      ...paths(QUOTE_OPERATIONS),
      ...paths(TRANSACTION_OPERATIONS),
      ...paths(BATCH_OPERATIONS),
      ...paths(STATEMENT_OPERATIONS),
      ...paths(STATEMENT_DAY_OPERATIONS),
      ...paths(DAY_TRANSACTION_OPERATIONS),
      ...paths(WEBHOOK_OPERATIONS),
      ...paths(WEBHOOK_DELIVERY_OPERATIONS),
      ...paths([railCallback]),
      ...paths(DOCS_OPERATIONS),
    },
    webhooks: OUTBOUND_WEBHOOKS,
    components: {
      schemas: registry.schemas,
      parameters: OPENAPI_PARAMETERS,
      headers: OPENAPI_HEADERS,
      responses: {},
      securitySchemes: OPENAPI_SECURITY_SCHEMES,
    },
  };
}

let cached: OpenApiDocument | undefined;

/** The document of this build, built once. */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument(readAppVersion());
  return cached;
}

let cachedAdmin: OpenApiDocument | undefined;

/** The admin API's document of this build, built once (`GET /admin/openapi.json`). */
export function adminOpenApiDocument(): OpenApiDocument {
  cachedAdmin ??= buildAdminOpenApiDocument(readAppVersion());
  return cachedAdmin;
}
