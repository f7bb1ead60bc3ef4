/** The admin listener's own routes (`admin-app.ts`): probes, metrics and this API's document. */
import { defineOperation } from "../../api/operation.js";
import { component, StringEnum, Type } from "../../api/schema.js";
import { URL_TEXT_CASE } from "../../openapi/openapi-errors.js";

export const Health = component(
  "Health",
  Type.Object({ status: StringEnum(["ok"]) }, { additionalProperties: false }),
);
export const Readiness = component(
  "Readiness",
  Type.Object({ status: StringEnum(["ready", "not_ready"]) }, { additionalProperties: false }),
);

const TAGS = ["Operations"];

export const healthz = defineOperation({
  method: "GET",
  path: "/healthz",
  operationId: "healthz",
  summary: "Liveness probe",
  description: "Public: the process answers.",
  tags: TAGS,
  public: true,
  responses: { 200: { description: "Alive.", schema: Health } },
  errors: [],
});

export const readyz = defineOperation({
  method: "GET",
  path: "/readyz",
  operationId: "readyz",
  summary: "Readiness probe",
  description: "Public: 200 when the database is reachable, else 503 with `not_ready`.",
  tags: TAGS,
  public: true,
  responses: {
    200: { description: "Ready.", schema: Readiness },
    503: { description: "Not ready: the database is unreachable.", schema: Readiness },
  },
  errors: [],
});

export const metrics = defineOperation({
  method: "GET",
  path: "/metrics",
  operationId: "metrics",
  summary: "Prometheus metrics",
  description: "Public (for the scraper): the process's metrics in the Prometheus text format.",
  tags: TAGS,
  public: true,
  responses: {
    200: {
      description: "The metrics.",
      mediaType: "text/plain",
      schema: Type.String({ description: "Prometheus exposition format." }),
    },
  },
  errors: [["NOT_FOUND", "telemetry does not run in this process"]],
});

export const adminOpenApi = defineOperation({
  method: "GET",
  path: "/admin/openapi.json",
  operationId: "getAdminOpenApiDocument",
  role: "viewer",
  summary: "This OpenAPI 3.1 document",
  description: "Behind the admin token, like every admin route.",
  tags: ["Documentation"],
  responses: {
    200: { description: "The document.", schema: Type.Object({}, { additionalProperties: true }) },
  },
  // Served from memory: only the token can be wrong.
  ownErrorsOnly: true,
  errors: [
    URL_TEXT_CASE,
    ["AUTHENTICATION_REQUIRED", "no `Authorization: Bearer` header, or not the admin token"],
  ],
});

export const ADMIN_LISTENER_OPERATIONS = [healthz, readyz, metrics, adminOpenApi] as const;
