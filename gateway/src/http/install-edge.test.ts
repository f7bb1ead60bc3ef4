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
});
