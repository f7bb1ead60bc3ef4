/** The admin listener's own routes (`admin-app.ts`): probes, metrics and this API's document. */
import { defineOperations, ok } from "../../api/operation.js";
import { ClosedObject, StringEnum, Type } from "../../api/schema.js";
import { URL_TEXT_CASE } from "../../openapi/openapi-errors.js";

export const Health = ClosedObject("Health", { status: StringEnum(["ok"]) });
export const Readiness = ClosedObject("Readiness", { status: StringEnum(["ready", "not_ready"]) });

const TAGS = ["Operations"];

const operations = defineOperations(
  { tags: TAGS },
  {
    healthz: {
      route: "GET /healthz",
      summary: "Liveness probe",
      description: "Public: the process answers.",
      public: true,
      responses: ok("Alive.", Health),
      errors: [],
    },
    readyz: {
      route: "GET /readyz",
      summary: "Readiness probe",
      description: "Public: 200 when the database is reachable, else 503 with `not_ready`.",
      public: true,
      responses: {
        200: { description: "Ready.", schema: Readiness },
        503: { description: "Not ready: the database is unreachable.", schema: Readiness },
      },
      errors: [],
    },
    metrics: {
      route: "GET /metrics",
      summary: "Prometheus metrics",
      description: "Public (for the scraper): the process's metrics in the Prometheus text format.",
      public: true,
      responses: {
        200: {
          description: "The metrics.",
          mediaType: "text/plain",
          schema: Type.String({ description: "Prometheus exposition format." }),
        },
      },
      errors: [["NOT_FOUND", "telemetry does not run in this process"]],
    },
    getAdminOpenApiDocument: {
      route: "GET /admin/openapi.json",
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
    },
  },
);
export const { healthz, readyz, metrics, getAdminOpenApiDocument: adminOpenApi } = operations;
export const ADMIN_LISTENER_OPERATIONS = Object.values(operations);
