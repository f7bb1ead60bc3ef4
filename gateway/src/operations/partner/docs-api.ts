/** `GET /openapi.json` and `GET /docs` (`docs-routes.ts`): public, integrators read them before they have credentials. */
import { defineOperations } from "../../api/operation.js";
import { Type } from "../../api/schema.js";
import { URL_TEXT_CASE } from "../../openapi/openapi-errors.js";

const operations = defineOperations(
  { tags: ["Documentation"] },
  {
    getOpenApiDocument: {
      route: "GET /openapi.json",
      summary: "This OpenAPI 3.1 document",
      description: "Public: no credentials. Money examples keep their exact decimals.",
      public: true,
      responses: {
        200: { description: "The document.", schema: Type.Object({}, { additionalProperties: true }) },
      },
      ownErrorsOnly: true,
      // Served from memory: nothing it depends on can fail.
      errors: [URL_TEXT_CASE],
    },
    getDocsPage: {
      route: "GET /docs",
      summary: "This reference as an HTML page",
      description: "Public: no credentials. Self-contained (no external scripts, styles or fonts).",
      public: true,
      responses: { 200: { description: "The page.", mediaType: "text/html", schema: Type.String() } },
      ownErrorsOnly: true,
      // Served from memory: nothing it depends on can fail.
      errors: [URL_TEXT_CASE],
    },
  },
);
export const { getOpenApiDocument, getDocsPage } = operations;
export const DOCS_OPERATIONS = Object.values(operations);
