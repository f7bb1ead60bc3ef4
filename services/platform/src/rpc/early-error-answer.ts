/**
 * An RPC's error answer written from its headers alone, before anything reads its body (an unknown
 * method, a caller refused), in the protocol the request speaks:
 * - gRPC and gRPC-Web: a trailers-only answer, HTTP 200 with `grpc-status` and `grpc-message` headers
 *   (over HTTP/2 in a HEADERS frame that ends the stream);
 * - Connect streaming: HTTP 200 with one end-of-stream envelope carrying the error;
 * - Connect unary (and anything else): the HTTP status of the code and Connect's JSON error body.
 * An HTTP/1.1 request whose body was not read loses its connection with the answer, so the unread bytes
 * never reach the parser as a next request.
 */
import type http from "node:http";
import http2 from "node:http2";
import type { ConnectError } from "@connectrpc/connect";
import { encodeEnvelope } from "@connectrpc/connect/protocol";
import {
  codeToHttpStatus,
  contentTypeUnaryJson,
  endStreamFlag,
  endStreamToJson,
  errorToJsonBytes,
} from "@connectrpc/connect/protocol-connect";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";

type Request = http.IncomingMessage | http2.Http2ServerRequest;
type Response = http.ServerResponse | http2.Http2ServerResponse;

/** `connectStatus` overrides the HTTP status of a Connect unary answer (404 for a path that names nothing). */
export function answerEarlyError(
  request: Request,
  response: Response,
  error: ConnectError,
  connectStatus?: number,
): void {
  const contentType = String(request.headers["content-type"] ?? "");
  const head: Record<string, string | number> = {};
  let status: number;
  let body: Uint8Array;
  if (contentType.startsWith("application/grpc")) {
    status = 200;
    head["content-type"] = contentType;
    setTrailerStatus(new Headers(), error).forEach((value, key) => {
      head[key] = value;
    });
    body = new Uint8Array(0);
  } else if (contentType.startsWith("application/connect+")) {
    status = 200;
    head["content-type"] = contentType;
    const json = JSON.stringify(endStreamToJson(error.metadata, error, undefined));
    body = encodeEnvelope(endStreamFlag, new TextEncoder().encode(json));
  } else {
    status = connectStatus ?? codeToHttpStatus(error.code);
    head["content-type"] = contentTypeUnaryJson;
    body = errorToJsonBytes(error, {});
  }
  if (response.headersSent || response.destroyed) return;
  if ("stream" in response && body.byteLength === 0) {
    // HTTP/2 gRPC: the status must come in a HEADERS frame that ends the stream (trailers-only), which
    // gRPC clients read as the call's trailers. A body still coming is refused with RST_STREAM NO_ERROR.
    const stream = response.stream;
    stream.respond({ ":status": status, ...head }, { endStream: true });
    if (!request.complete) stream.close(http2.constants.NGHTTP2_NO_ERROR);
    return;
  }
  head["content-length"] = body.byteLength;
  if (request.httpVersionMajor === 1 && !request.complete) head.connection = "close";
  (response as http.ServerResponse).writeHead(status, head);
  (response as http.ServerResponse).end(body);
}
