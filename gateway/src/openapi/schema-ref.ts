import type { JsonSchema } from "./openapi-types.js";

/** A reference to `#/components/schemas/<name>`; the documents' structure test checks that it resolves. */
export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
