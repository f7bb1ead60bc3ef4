/**
 * What both documents (partner and admin) open with: OpenAPI 3.1 and its dialect, `info` under the
 * project's license, and the two servers — the listener serving the document and the embedded sandbox.
 */
import type { OpenApiDocument } from "./openapi-types.js";

export function documentHead(options: {
  readonly title: string;
  readonly version: string;
  readonly summary: string;
  readonly description: string;
  /** What serves the document, e.g. "The gateway". */
  readonly servedBy: string;
  readonly sandboxPort: number;
}): Pick<OpenApiDocument, "openapi" | "jsonSchemaDialect" | "info" | "servers"> {
  const { title, version, summary, description, servedBy, sandboxPort } = options;
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: { title, version, summary, description, license: { name: "Apache 2.0", identifier: "Apache-2.0" } },
    servers: [
      { url: "/", description: `${servedBy} serving this document` },
      { url: `http://localhost:${sandboxPort}`, description: "Embedded sandbox (`npm start`)" },
    ],
  };
}
