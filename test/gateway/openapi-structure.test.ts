import { describe, expect, it } from "vitest";
import { checkOpenApiStructure } from "../support/openapi/openapi-structure.js";

// biome-ignore lint/suspicious/noExplicitAny: each case reaches into arbitrary JSON to break it
type Doc = Record<string, any>;

/** A small valid document that each case breaks in one place. */
function base(): Doc {
  return {
    openapi: "3.1.0",
    info: { title: "t", version: "1" },
    tags: [{ name: "A", description: "a" }],
    security: [{ basicAuth: [] }],
    paths: {
      "/things/{id}": {
        get: {
          operationId: "getThing",
          tags: ["A"],
          parameters: [{ name: "id", in: "path", required: true, schema: { type: "string" } }],
          responses: {
            "200": {
              description: "ok",
              content: { "application/json": { schema: { $ref: "#/components/schemas/Thing" } } },
            },
          },
        },
      },
    },
    components: {
      schemas: { Thing: { type: "object", required: ["id"], properties: { id: { type: "string" } } } },
      securitySchemes: { basicAuth: { type: "http", scheme: "basic" } },
    },
  };
}

const op = (doc: Doc) => doc.paths["/things/{id}"].get;

describe("checkOpenApiStructure", () => {
  it("accepts a valid document", () => {
    expect(checkOpenApiStructure(base())).toEqual([]);
  });

  it.each<[string, (doc: Doc) => void, RegExp]>([
    [
      "a 3.0 version",
      (d) => {
        d.openapi = "3.0.3";
      },
      /openapi: not 3\.1\.x/,
    ],
    [
      "no info.version",
      (d) => {
        delete d.info.version;
      },
      /info\.version: missing/,
    ],
    [
      "a dangling $ref",
      (d) => {
        d.components.schemas = {};
      },
      /\$ref #\/components\/schemas\/Thing does not resolve/,
    ],
    [
      "an undeclared path parameter",
      (d) => {
        op(d).parameters = [];
      },
      /path parameter \{id\} is not declared/,
    ],
    [
      "a path parameter missing from the path",
      (d) => void op(d).parameters.push({ name: "other", in: "path", required: true, schema: {} }),
      /path parameter other is not in the path/,
    ],
    [
      "an optional path parameter",
      (d) => {
        op(d).parameters[0].required = false;
      },
      /must be required/,
    ],
    [
      "an undeclared tag",
      (d) => {
        op(d).tags = ["B"];
      },
      /tag B is not declared/,
    ],
    [
      "an undeclared security scheme",
      (d) => {
        op(d).security = [{ oauth: [] }];
      },
      /oauth is not declared/,
    ],
    [
      "no responses",
      (d) => {
        op(d).responses = {};
      },
      /no responses/,
    ],
    [
      "a response without a description",
      (d) => void delete op(d).responses["200"].description,
      /without a description/,
    ],
    [
      "a bad status key",
      (d) => {
        op(d).responses["20"] = { description: "x" };
      },
      /invalid status key/,
    ],
    [
      "a duplicate operationId",
      (d) => {
        d.paths["/other"] = { post: { ...op(d), parameters: [] } };
      },
      /duplicate operationId getThing/,
    ],
    [
      "a path without a slash",
      (d) => {
        d.paths.things = {};
      },
      /does not start with \//,
    ],
    [
      "a required name that is not a property",
      (d) => void d.components.schemas.Thing.required.push("name"),
      /required name is not a property/,
    ],
    [
      "an unknown path item key",
      (d) => {
        d.paths["/things/{id}"].fetch = {};
      },
      /unexpected key fetch/,
    ],
    [
      "a parameter with both schema and content",
      (d) => {
        op(d).parameters[0].content = { "text/plain": {} };
      },
      /exactly one of schema, content/,
    ],
  ])("reports %s", (_name, breakIt, expected) => {
    const doc = base();
    breakIt(doc);
    const problems = checkOpenApiStructure(doc);
    expect(
      problems.some((p) => expected.test(p)),
      problems.join("\n"),
    ).toBe(true);
  });
});
