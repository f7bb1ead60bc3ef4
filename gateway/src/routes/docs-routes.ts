/**
 * `GET /openapi.json` and `GET /docs`: the partner API's OpenAPI 3.1 document and its HTML
 * rendering. Public (`auth: "none"`): integrators read them before they have credentials.
 */
import { stringifyJson } from "@payouts/platform/money/json-decimal";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { DOCS_PAGE_CSP, renderDocsPage } from "../openapi/docs-page.js";
import { openApiDocument } from "../openapi/openapi-document.js";
import { getDocsPage, getOpenApiDocument } from "../operations/partner/docs-api.js";

const CACHE = "public, max-age=300";

export function registerDocsRoutes(app: FastifyInstance, _deps: GatewayDeps): void {
  // Rendered once: the document is fixed for the life of the process.
  const document = openApiDocument();
  const json = stringifyJson(document);
  const page = renderDocsPage(document);

  addRoute(
    app,
    getOpenApiDocument,
    async (_request, reply) =>
      reply
        .type("application/json; charset=utf-8")
        .header("Cache-Control", CACHE)
        .header("Access-Control-Allow-Origin", "*")
        .send(json),
    { auth: "none" },
  );

  addRoute(
    app,
    getDocsPage,
    async (_request, reply) =>
      reply
        .type("text/html; charset=utf-8")
        .header("Cache-Control", CACHE)
        .header("Content-Security-Policy", DOCS_PAGE_CSP)
        .header("X-Content-Type-Options", "nosniff")
        .send(page),
    { auth: "none" },
  );
}
