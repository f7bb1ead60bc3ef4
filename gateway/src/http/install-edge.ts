import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { ConnectError } from "@connectrpc/connect";
import { newId } from "@payouts/platform/ids";
import type { Logger } from "@payouts/platform/logging/logger";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "./api-error.js";
import { httpStatusFor, isDependencyUnavailable, RETRY_AFTER_SECONDS } from "./error-map.js";
import { recordNumberTexts } from "./json-number-text.js";
import { checkJsonBody, checkUrlParameters } from "./text-safety.js";
import { answerUnroutedRequests } from "./unrouted-requests.js";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Request ids from `X-Request-Id` when sane, else generated; echoed on every response. */
export function requestIdFor(header: string | string[] | undefined): string {
  const given = Array.isArray(header) ? header[0] : header;
  return given && REQUEST_ID.test(given) ? given : newId("req");
}

/**
 * Wires the conventions every listener shares: `X-Request-Id` on every response, the error body
 * `{code, message, field?, request_id}`, JSON-only bodies, one access-log line per request, and no
 * internals in 500s. Pass `answerFrameworkError` as the listener's `frameworkErrors` option too.
 */
export function installEdge(app: FastifyInstance, logger: Logger): void {
  acceptJsonOnly(app);
  app.addHook("onRequest", async (request, reply) => {
    reply.header("X-Request-Id", request.id);
  });
  app.addHook("preValidation", async (request) => checkUrlParameters(request));
  app.addHook("onResponse", async (request, reply) => {
    logger.info(
      {
        request_id: request.id,
        method: request.method,
        route: request.routeOptions.url,
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime),
        partner_id: request.partnerApp?.partnerId,
      },
      "request",
    );
  });
  answerUnroutedRequests(app, sendError);
  // A route that finds nothing to serve (the console's static files) answers through this.
  app.setNotFoundHandler((request, reply) => {
    void sendError(
      reply,
      request,
      new ApiError(404, "NOT_FOUND", `no route ${request.method} ${request.url}`),
    );
  });
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(reply, request, error));
}

/**
 * Bodies are JSON only. Fastify also parses text/plain, which would let a JSON text sent as plain text
 * reach the routes as a string; without that parser it is answered 415. A JSON Content-Type with an empty
 * body (what many clients send on a bodyless POST or DELETE) counts as no body, not as malformed JSON.
 * A parsed body passes `checkJsonBody` (nesting depth, NUL and unpaired surrogates) before any route sees it,
 * and the exact text of every number is kept beside it (json-number-text.ts) for money fields.
 */
function acceptJsonOnly(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser(["text/plain", "application/json"]);
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body.toString();
    if (text === "") done(null, undefined);
    else
      void parseJson(request, text, (error, value) => {
        const refusal = error ?? safeJsonBody(value);
        if (!refusal) recordNumberTexts(text, value);
        done(refusal, value);
      });
  });
}

function safeJsonBody(value: unknown): Error | null {
  try {
    checkJsonBody(value);
    return null;
  } catch (error) {
    return error as Error;
  }
}

/**
 * Fastify's own refusals before routing (a malformed percent-encoding, an over-long path parameter), given
 * the same error body and X-Request-Id as every other answer instead of Fastify's default.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  reply.header("X-Request-Id", request.id);
  const status = error.statusCode ?? 500;
  // Every such refusal is the documented 400 (a path parameter over Fastify's length cap would be 414).
  const refusal =
    status >= 400 && status < 500
      ? new ApiError(400, "INVALID_FIELD", "the request URL is malformed")
      : error;
  void sendError(reply, request, refusal);
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers over 16 KiB, a NUL or a bare CR in a
 * header, a malformed request line), answered with the error body and X-Request-Id rather than Fastify's
 * default `{"error","message","statusCode"}`. Pass it as the listener's `clientErrorHandler` option.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  // As Node's own default: never write a second response after one was already started on this socket
  // (a parse error can come after a request was answered, e.g. in its body).
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  const [status, code, message] =
    error.code === "ERR_HTTP_REQUEST_TIMEOUT"
      ? [408, "REQUEST_TIMEOUT", "the request was not received in time"]
      : error.code === "HPE_HEADER_OVERFLOW"
        ? [431, "INVALID_FIELD", "the request headers are too large"]
        : [400, "INVALID_FIELD", "the HTTP request is malformed"];
  const requestId = newId("req");
  const body = JSON.stringify({ code, message, request_id: requestId });
  if (socket.writable && !inFlight?.headersSent) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export function sendError(reply: FastifyReply, request: FastifyRequest, error: unknown): FastifyReply {
  const body = (code: string, message: string, field?: string) => ({
    code,
    message,
    ...(field ? { field } : {}),
    request_id: request.id,
  });
  if (error instanceof ApiError) {
    for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
    return reply
      .code(error.status)
      .send({ ...body(error.code, error.message, error.field), ...error.facts, request_id: request.id });
  }
  if (error instanceof ConnectError) {
    const detail = errorDetailOf(error);
    if (detail) {
      const status = httpStatusFor(detail.reason, error.code);
      const retryAfter =
        detail.metadata.retry_after_seconds || (status === 503 ? String(RETRY_AFTER_SECONDS) : undefined);
      if (retryAfter) reply.header("Retry-After", retryAfter);
      if (status === 503) request.log.warn({ err: error, request_id: request.id }, "dependency unavailable");
      return reply.code(status).send(body(detail.reason, error.rawMessage, detail.field || undefined));
    }
  }
  if (isDependencyUnavailable(error)) {
    request.log.warn({ err: error, request_id: request.id }, "dependency unavailable");
    reply.header("Retry-After", String(RETRY_AFTER_SECONDS));
    return reply
      .code(503)
      .send(body("SERVICE_UNAVAILABLE", "a service this request needs is unavailable; retry later"));
  }
  const fe = error as Partial<FastifyError>;
  if (fe.code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") {
    return reply.code(415).send(body("INVALID_FIELD", "Content-Type must be application/json"));
  }
  if (
    fe.code === "FST_ERR_CTP_EMPTY_JSON_BODY" ||
    fe.code === "FST_ERR_CTP_INVALID_JSON_BODY" ||
    error instanceof SyntaxError
  ) {
    return reply.code(400).send(body("INVALID_FIELD", "request body is not valid JSON"));
  }
  if (fe.code === "FST_ERR_CTP_BODY_TOO_LARGE") {
    return reply.code(413).send(body("INVALID_FIELD", "request body is too large"));
  }
  request.log.error({ err: error, request_id: request.id }, "unhandled error");
  return reply
    .code(500)
    .send(body("INTERNAL", "internal error; quote the request_id when contacting support"));
}
