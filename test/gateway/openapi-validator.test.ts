import { describe, expect, it } from "vitest";
import { createOpenApiValidator, documentedSchema } from "../support/openapi/openapi-validator.js";

const doc = {
  paths: {
    "/things": {
      post: {
        requestBody: { content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } },
        responses: {
          "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } } },
        },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: "object",
        required: ["id", "at"],
        properties: {
          id: { type: "string", pattern: "^t_" },
          at: { type: ["string", "null"], format: "date-time" },
          meta: { type: "object", additionalProperties: true },
        },
      },
    },
  },
};
const thing = { $ref: "#/components/schemas/Thing" };

describe("createOpenApiValidator", () => {
  it.each<[string, unknown, boolean, boolean]>([
    ["a valid value", { id: "t_1", at: "2026-11-21T01:59:37.286Z" }, true, true],
    ["a null timestamp", { id: "t_1", at: null }, true, true],
    ["a missing required field", { id: "t_1" }, false, false],
    ["a broken pattern", { id: "x", at: null }, false, false],
    ["a bad date-time", { id: "t_1", at: "yesterday" }, false, false],
    ["an undocumented field", { id: "t_1", at: null, extra: 1 }, true, false],
    ["free keys inside an open map", { id: "t_1", at: null, meta: { anything: 1 } }, true, true],
  ])("%s: open %s, closed %s", (_name, value, openOk, closedOk) => {
    expect(createOpenApiValidator(doc).validate(thing, value).length === 0).toBe(openOk);
    expect(createOpenApiValidator(doc, { closed: true }).validate(thing, value).length === 0).toBe(closedOk);
  });

  it("names the undocumented property", () => {
    const problems = createOpenApiValidator(doc, { closed: true }).validate(thing, {
      id: "t_1",
      at: null,
      extra: 1,
    });
    expect(problems.join()).toContain("extra");
  });

  it("finds the documented schema of a response or request body", () => {
    expect(documentedSchema(doc, "paths", "/things", "post", "200")).toEqual(thing);
    expect(documentedSchema(doc, "paths", "/things", "post", "request")).toEqual(thing);
    expect(() => documentedSchema(doc, "paths", "/things", "get", "200")).toThrow(/not documented/);
    expect(() => documentedSchema(doc, "paths", "/things", "post", "404")).toThrow(/no JSON schema/);
  });
});
