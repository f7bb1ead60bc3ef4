/**
 * The HTTP client under the service transports (service-transport.ts): unary Connect calls over HTTP/1.1
 * keep-alive, one `node:http` request each. What connect-node's own HTTP/1.1 client does per call that
 * this one does not (issue 13, the profiles in test/bench/README.md):
 * - it sends the headers and the body as two writes (`flushHeaders()`, then the body): here one write;
 * - it builds a `ConnectError` after every successful call (its sentinel rejects the finished race);
 * - it parses the URL twice.
 * Errors are what connect-node makes of the same failures (`errorOf`), so the gateway's 503 rule
 * (gateway/src/http/error-map.ts) sees the same codes: refused or unresolvable → UNAVAILABLE, reset → ABORTED.
 */
import http from "node:http";
import https from "node:https";
import { Code, ConnectError } from "@connectrpc/connect";
import { getAbortSignalReason, type UniversalClientFn } from "@connectrpc/connect/protocol";

const UNAVAILABLE = new Set(["ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED"]);
const ABORTED = new Set(["ERR_STREAM_WRITE_AFTER_END", "ERR_STREAM_DESTROYED", "ECONNRESET"]);

/** A ConnectError for a failed request, with connect-node's codes for Node's socket errors. */
export function errorOf(reason: unknown): ConnectError {
  if (reason instanceof ConnectError) return reason;
  const codes: string[] = [];
  for (let e = reason, depth = 0; e instanceof Error && depth < 10; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    e = (e as { cause?: unknown }).cause;
  }
  const code = codes.some((c) => ABORTED.has(c))
    ? Code.Aborted
    : codes.some((c) => UNAVAILABLE.has(c))
      ? Code.Unavailable
      : Code.Internal;
  const error = ConnectError.from(reason, code);
  if (error !== reason) error.cause = reason;
  return error;
}

export function createHttp1UnaryClient(agent: http.Agent): UniversalClientFn {
  const send = agent instanceof https.Agent ? https.request : http.request;
  return async (req) => {
    const signal = req.signal;
    if (signal?.aborted) throw errorOf(getAbortSignalReason(signal));
    const chunks: Uint8Array[] = [];
    if (req.body) for await (const chunk of req.body) chunks.push(chunk);
    const body = chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
    const url = new URL(req.url);
    const headers: http.OutgoingHttpHeaders = { "content-length": body.byteLength };
    req.header.forEach((value, key) => {
      headers[key] = value;
    });
    return new Promise((resolve, reject) => {
      const request = send({
        agent,
        protocol: url.protocol,
        hostname: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: req.method,
        headers,
      });
      let response: http.IncomingMessage | undefined;
      const fail = (reason: unknown) => {
        const error = errorOf(reason);
        signal?.removeEventListener("abort", onAbort);
        reject(error);
        // A response already handed over fails its body; otherwise the request goes with its socket.
        if (response) response.destroy(error);
        else request.destroy(error);
      };
      const onAbort = () => fail(getAbortSignalReason(signal as AbortSignal));
      signal?.addEventListener("abort", onAbort);
      request.on("error", fail);
      request.on("response", (res) => {
        response = res;
        const header = new Headers();
        for (const [key, value] of Object.entries(res.headers)) {
          if (value === undefined) continue;
          if (Array.isArray(value)) for (const v of value) header.append(key, v);
          else header.set(key, value);
        }
        resolve({
          status: res.statusCode ?? 0,
          header,
          body: bodyOf(res, () => signal?.removeEventListener("abort", onAbort)),
          trailer: new Headers(),
        });
      });
      request.end(body);
    });
  };
}

/** The response body, failing with a ConnectError; `done` runs once it is read to the end or failed. */
async function* bodyOf(response: http.IncomingMessage, done: () => void): AsyncIterable<Uint8Array> {
  try {
    for await (const chunk of response) yield chunk as Uint8Array;
  } catch (error) {
    throw errorOf(error);
  } finally {
    done();
  }
}
