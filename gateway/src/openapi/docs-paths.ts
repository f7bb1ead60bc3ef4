/** The two public documentation routes themselves (`routes/docs-routes.ts`). */
import { headerRef } from "./openapi-components.js";
import type { PathItem } from "./openapi-types.js";

const REQUEST_ID = { "X-Request-Id": headerRef("requestId") };

export const DOCS_PATHS: Readonly<Record<string, PathItem>> = {
  "/openapi.json": {
    get: {
      operationId: "getOpenApiDocument",
      tags: ["Documentation"],
      summary: "This OpenAPI 3.1 document",
      description: "Public: no credentials. Money examples keep their exact decimals.",
      security: [],
      responses: {
        "200": {
          description: "The document.",
          headers: REQUEST_ID,
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    },
  },
  "/docs": {
    get: {
      operationId: "getDocsPage",
      tags: ["Documentation"],
      summary: "This reference as an HTML page",
      description: "Public: no credentials. Self-contained (no external scripts, styles or fonts).",
      security: [],
      responses: {
        "200": {
          description: "The page.",
          headers: REQUEST_ID,
          content: { "text/html": { schema: { type: "string" } } },
        },
      },
    },
  },
};
