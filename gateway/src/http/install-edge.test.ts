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
  it("answers a malformed URL with the error body and X-Request-Id (DESIGN §4)", async () => {
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
  ])("refuses a %s body with 415 (seed: all bodies are JSON)", async (contentType, payload) => {
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
