import { createLogger } from "@payouts/platform/logging/logger";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerFrameworkError, installEdge, requestIdFor } from "./install-edge.js";

const logger = createLogger({ service: "test", level: "silent" });
let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    genReqId: (req) => requestIdFor(req.headers["x-request-id"]),
    frameworkErrors: answerFrameworkError,
  });
  installEdge(app, logger);
  app.post("/echo", async (request) => ({ body: request.body ?? "absent" }));
  app.get("/items/:id", async (request) => request.params);
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

describe("installEdge", () => {
  it("answers a malformed URL with the error body and X-Request-Id of every answer", async () => {
    const res = await app.inject({
      method: "GET",
      url: "/items/%E0%A4%A",
      headers: { "x-request-id": "rq-1" },
    });
    expect(res.statusCode).toBe(400);
    expect(res.headers["x-request-id"]).toBe("rq-1");
    expect(res.json()).toEqual({
      code: "INVALID_FIELD",
      message: "the request URL is malformed",
      request_id: "rq-1",
    });
  });

  it.each([
    ["text/plain", '{"amount":1}'],
    ["application/x-www-form-urlencoded", "amount=1"],
  ])("refuses a %s body with 415 (the partner API takes JSON bodies only)", async (contentType, payload) => {
    const res = await app.inject({
      method: "POST",
      url: "/echo",
      headers: { "content-type": contentType },
      payload,
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe("INVALID_FIELD");
    expect(res.headers["x-request-id"]).toBe(res.json().request_id);
  });

  it.each([
    ["an empty JSON body as no body", "", 200, { body: "absent" }],
    ["a JSON object", '{"a":1}', 200, { body: { a: 1 } }],
  ])("reads %s", async (_name, payload, status, expected) => {
    const res = await app.inject({
      method: "POST",
      url: "/echo",
      headers: { "content-type": "application/json" },
      payload,
    });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(expected);
  });

  it.each([
    ["malformed JSON", "{bad"],
    ["a prototype-poisoning body", '{"__proto__":{"x":1}}'],
    ["a blank body", "  "],
  ])("refuses %s with 400 INVALID_FIELD", async (_name, payload) => {
    const res = await app.inject({
      method: "POST",
      url: "/echo",
      headers: { "content-type": "application/json" },
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "INVALID_FIELD", message: "request body is not valid JSON" });
  });
});

describe("installEdge: text PostgreSQL cannot store, and nesting", () => {
  const post = (payload: string) =>
    app.inject({ method: "POST", url: "/echo", headers: { "content-type": "application/json" }, payload });

  it.each([
    ["a NUL in a string", '{"name":"a\\u0000b"}', "name", "must not contain a NUL character"],
    ["a NUL in a nested string", '{"r":{"list":["ok","\\u0000"]}}', "r.list[1]", "NUL"],
    ["a lone high surrogate", '{"name":"a\\ud800"}', "name", "must not contain an unpaired surrogate"],
    ["a lone low surrogate", '{"name":"\\udc00b"}', "name", "unpaired surrogate"],
    ["a NUL in a key", '{"r":{"a\\u0000":1}}', "r", "must not have a key containing a NUL character"],
  ])("refuses %s with 400 INVALID_FIELD naming the field", async (_name, payload, field, message) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: "INVALID_FIELD",
      field,
      request_id: res.headers["x-request-id"],
    });
    expect(res.json().message).toContain(message);
  });

  it("accepts a surrogate pair, other control characters and 64 levels of nesting", async () => {
    const deep = `${"[".repeat(63)}"😀\\u0001"${"]".repeat(63)}`;
    const res = await post(`{"a":${deep}}`);
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json().body)).toContain("😀\\u0001");
  });

  it.each([65, 100_000])("refuses %i levels of nesting with 400 INVALID_FIELD", async (levels) => {
    const res = await post(`{"a":${"[".repeat(levels - 1)}${"]".repeat(levels - 1)}}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: "INVALID_FIELD",
      message: "request body is nested deeper than 64 levels",
    });
  });

  it.each([
    ["a NUL in a path id", "/items/tx_%00", "id"],
    ["a NUL in a query parameter", "/items/tx_1?cursor=a%00", "cursor"],
    ["a NUL in a repeated query parameter", "/items/tx_1?s=a&s=%00", "s"],
  ])("refuses %s with 400 INVALID_FIELD naming it", async (_name, url, field) => {
    const res = await app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: "INVALID_FIELD",
      field,
      request_id: res.headers["x-request-id"],
    });
  });
});
