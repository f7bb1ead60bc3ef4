/**
 * The request handler of the RPC listeners (rpc-listener.ts). Unary calls in the Connect protocol with
 * binary bodies over HTTP/1.1 — every call the services make to each other (service-transport.ts) — are
 * served here directly; everything else goes to connect-node's adapter, built from the same routes and
 * interceptors: gRPC and gRPC-Web, HTTP/2, streaming methods, Connect with JSON, GET or compressed
 * bodies.
 *
 * Before either reads a byte of the body, every request is checked from its path and headers alone
 * (early-error-answer.ts writes the refusal): a path that names no method is UNIMPLEMENTED (gRPC status
 * 12, Connect `unimplemented`), and `authenticate` (the caller check, service-auth.ts) refuses a call
 * without a valid credential, so an anonymous peer cannot make the server buffer or decode anything.
 *
 * What connect-node's server does per unary call that this one does not (measured in
 * test/bench/README.md): three AbortControllers, a deadline timer and an abort with a new DOMException
 * (here the signal is made only if read: unary-call-state.ts); the URL parsed twice; the headers
 * converted to a `Headers` twice and back; the interceptor chain composed again; the body read and the
 * answer written through async generators and several promise layers. The answer is the same: the
 * handlers see a connect `HandlerContext`, the interceptors a `UnaryRequest` (tracing, RPC metrics and
 * the caller check run as before), and errors are Connect's JSON error body with the HTTP status of
 * their code (`codeToHttpStatus`, `errorToJsonBytes` of connect itself), metadata as headers.
 *
 * Request bodies are limited to `readMaxBytes` on both paths (RESOURCE_EXHAUSTED beyond it).
 *
 * Both paths must answer alike: this one follows connect-node at the pinned connect-es release
 * (connect-es-pin.ts says why it is pinned and what to run on an upgrade).
 */
import type http from "node:http";
import type http2 from "node:http2";
import { create, type DescMethodUnary, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  createContextKey,
  createContextValues,
  createMethodImplSpec,
  createServiceImplSpec,
  type HandlerContext,
  type Interceptor,
  type MethodImplSpec,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import type { UniversalHandlerOptions } from "@connectrpc/connect/protocol";
import {
  codeToHttpStatus,
  contentTypeUnaryJson,
  contentTypeUnaryProto,
  errorToJsonBytes,
  parseContentType,
  parseTimeout,
} from "@connectrpc/connect/protocol-connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { answerEarlyError } from "./early-error-answer.js";
import { UnaryCallState } from "./unary-call-state.js";

export type RpcRequestHandler = (
  request: http.IncomingMessage | http2.Http2ServerRequest,
  response: http.ServerResponse | http2.Http2ServerResponse,
) => void;

/** Connect's headers, as node:http names them (lower case). */
const TIMEOUT_HEADER = "connect-timeout-ms";
const ENCODING_HEADER = "content-encoding";

/** gRPC's default limit on a received message; no request between our services comes near it. */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

export interface RpcHandlerOptions {
  readonly routes: (router: ConnectRouter) => void;
  /** Outermost first, as connect's `interceptors` option. */
  readonly interceptors?: readonly Interceptor[];
  /** Largest request body accepted; MAX_REQUEST_BYTES by default. */
  readonly readMaxBytes?: number;
  /**
   * Connect JSON's options (connect-node's `jsonOptions`), e.g. the registry that encodes a
   * `google.protobuf.Any` field; only JSON requests use them, and no service's messages need them.
   */
  readonly jsonOptions?: UniversalHandlerOptions["jsonOptions"];
  /**
   * Checked from the headers before the body is read: the error to answer `procedure`
   * ("<service>/<Method>") with, or undefined to serve it.
   */
  readonly authenticate?: (
    procedure: string,
    authorization: string | undefined,
  ) => Promise<ConnectError | undefined>;
}

type UnaryCall = (req: UnaryRequest) => Promise<UnaryResponse>;

/** A unary method served directly: its descriptor and its implementation inside the interceptors. */
interface UnaryRoute {
  readonly method: DescMethodUnary;
  readonly call: UnaryCall;
}

/** Carries the call's deadline, signal and answer headers to the handler context, past any interceptor. */
const CALL_STATE = createContextKey<UnaryCallState | undefined>(undefined, { description: "unary call" });

export function createRpcHandler(options: RpcHandlerOptions): RpcRequestHandler {
  const interceptors = options.interceptors ?? [];
  const readMaxBytes = options.readMaxBytes ?? MAX_REQUEST_BYTES;
  const unary = new Map<string, UnaryRoute>();
  /** Every routed method's path, "/<service>/<Method>", whatever its kind. */
  const known = new Set<string>();
  const add = (spec: MethodImplSpec) => {
    known.add(`/${spec.method.parent.typeName}/${spec.method.name}`);
    if (spec.kind !== "unary") return;
    const call = chain(interceptors, invoke(spec.method, spec.impl));
    unary.set(`/${spec.method.parent.typeName}/${spec.method.name}`, { method: spec.method, call });
  };
  const fallback = connectNodeAdapter({
    interceptors: [...interceptors],
    readMaxBytes,
    ...(options.jsonOptions ? { jsonOptions: options.jsonOptions } : {}),
    routes: (router) => {
      // Every route goes to connect-node's router as before; unary ones are also served directly.
      const recording: ConnectRouter = {
        handlers: router.handlers,
        service(service, implementation, handlerOptions) {
          router.service(service, implementation, handlerOptions);
          for (const spec of Object.values(createServiceImplSpec(service, implementation).methods)) add(spec);
          return recording;
        },
        rpc(method, impl, handlerOptions) {
          router.rpc(method, impl, handlerOptions);
          add(createMethodImplSpec(method, impl));
          return recording;
        },
      };
      options.routes(recording);
    },
  });
  const dispatch: RpcRequestHandler = (request, response) => {
    const route =
      request.httpVersionMajor === 1 && request.method === "POST" && isBinaryUnary(request.headers)
        ? unary.get(request.url ?? "")
        : undefined;
    if (route === undefined) {
      fallback(request, response);
      return;
    }
    const res = response as http.ServerResponse;
    // Only writing the answer can fail here (e.g. a header value Node refuses): the caller sees the
    // connection reset (ABORTED) rather than the process an unhandled rejection.
    serve(route, request as http.IncomingMessage, res, readMaxBytes).catch(() => res.destroy());
  };
  const authenticate = options.authenticate;
  return (request, response) => {
    const path = pathOf(request.url);
    if (!known.has(path)) {
      // 404 as connect-node's router answers an unknown path; Connect clients read either as UNIMPLEMENTED.
      const error = new ConnectError(`unknown method ${path}`, Code.Unimplemented);
      answerEarlyError(request, response, error, 404);
      return;
    }
    if (authenticate === undefined) {
      dispatch(request, response);
      return;
    }
    const authorization = request.headers.authorization;
    authenticate(path.slice(1), authorization).then(
      (error) => (error ? answerEarlyError(request, response, error) : dispatch(request, response)),
      () => answerEarlyError(request, response, new ConnectError("internal error", Code.Internal)),
    );
  };
}

/** The path of a request target, without its query (Connect GET requests carry the message there). */
function pathOf(url: string | undefined): string {
  const target = url ?? "";
  const query = target.indexOf("?");
  return query < 0 ? target : target.slice(0, query);
}

/** Connect unary, binary, uncompressed: what service-transport.ts sends. */
function isBinaryUnary(headers: http.IncomingHttpHeaders): boolean {
  const encoding = headers[ENCODING_HEADER];
  if (encoding !== undefined && encoding !== "identity") return false;
  const type = parseContentType(headers["content-type"] ?? null);
  return type?.binary === true && !type.stream;
}

/** The interceptors around the method, composed once (connect composes them again for every call). */
function chain(interceptors: readonly Interceptor[], call: UnaryCall): UnaryCall {
  return interceptors.reduceRight(
    (next, interceptor) => interceptor(next as Parameters<Interceptor>[0]) as UnaryCall,
    call,
  );
}

/** The innermost step: the method implementation with its HandlerContext, as connect builds it. */
function invoke(method: DescMethodUnary, impl: MethodImplSpec["impl"]): UnaryCall {
  const unaryImpl = impl as (request: unknown, context: HandlerContext) => unknown;
  return async (req) => {
    const state = req.contextValues.get(CALL_STATE) as UnaryCallState;
    const context: HandlerContext = {
      method,
      service: req.service,
      requestMethod: req.requestMethod,
      protocolName: "connect",
      url: req.url,
      requestHeader: req.header,
      responseHeader: state.responseHeader,
      responseTrailer: state.responseTrailer,
      values: req.contextValues,
      timeoutMs: () => state.timeoutMs(),
      get signal() {
        return req.signal;
      },
    };
    const output = await unaryImpl(req.message, context);
    return {
      stream: false,
      service: req.service,
      method,
      message: create(method.output, output as never),
      header: state.responseHeader,
      trailer: state.responseTrailer,
    };
  };
}

/** Reads, decodes and answers one call: every failure of the call is its error answer. */
async function serve(
  route: UnaryRoute,
  request: http.IncomingMessage,
  response: http.ServerResponse,
  readMaxBytes: number,
): Promise<void> {
  const timeout = parseTimeout(headerOf(request, TIMEOUT_HEADER) ?? null, Number.MAX_SAFE_INTEGER);
  const deadline = timeout.timeoutMs === undefined ? undefined : Date.now() + timeout.timeoutMs;
  const state = new UnaryCallState(response, deadline);
  let status = 200;
  let contentType = contentTypeUnaryProto;
  let body: Uint8Array;
  try {
    if (timeout.error) throw timeout.error;
    const message = parse(route.method, await readBody(request, readMaxBytes));
    const res = await route.call(unaryRequest(route.method, message, request, state));
    copyHeaders(res.header, state.responseHeader);
    copyHeaders(res.trailer, state.responseTrailer);
    body = toBinary(route.method.output, res.message);
    state.end();
  } catch (e) {
    const error =
      e instanceof ConnectError
        ? e
        : new ConnectError("internal error", Code.Internal, undefined, undefined, e);
    state.end(error);
    status = codeToHttpStatus(error.code);
    contentType = contentTypeUnaryJson;
    error.metadata.forEach((value, key) => {
      state.responseHeader.set(key, value);
    });
    // A body left unread (too large) is not worth draining: the connection goes with the answer.
    if (!request.complete) state.responseHeader.set("connection", "close");
    body = errorToJsonBytes(error, {});
  }
  const head: http.OutgoingHttpHeaders = {};
  state.responseHeader.forEach((value, key) => {
    head[key] = value;
  });
  state.responseTrailer.forEach((value, key) => {
    head[`trailer-${key}`] = value;
  });
  // Last, as connect does: an error relayed from another service carries that service's answer headers
  // in its metadata (its content-length, maybe a proxy's content-type), which describe another body.
  head["content-type"] = contentType;
  head["content-length"] = body.byteLength;
  if (response.destroyed) return;
  response.writeHead(status, head);
  response.end(body);
}

/** What the interceptors see: connect's UnaryRequest, the signal and the URL made only when read. */
function unaryRequest(
  method: DescMethodUnary,
  message: UnaryRequest["message"],
  request: http.IncomingMessage,
  state: UnaryCallState,
): UnaryRequest {
  return {
    stream: false,
    service: method.parent,
    method,
    message,
    requestMethod: "POST",
    header: headersOf(request),
    contextValues: createContextValues().set(CALL_STATE, state),
    get url() {
      return urlOf(request);
    },
    get signal() {
      return state.signal;
    },
  };
}

function parse(method: DescMethodUnary, body: Uint8Array): UnaryRequest["message"] {
  try {
    return fromBinary(method.input, body);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    throw new ConnectError(`parse binary: ${reason}`, Code.InvalidArgument);
  }
}

/** The request body, at most `maxBytes` (RESOURCE_EXHAUSTED beyond); CANCELED if the caller goes away. */
function readBody(request: http.IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(headerOf(request, "content-length") ?? 0);
  if (declared > maxBytes) return Promise.reject(tooLarge(declared, maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onClose);
      request.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      stop();
      request.pause();
      reject(tooLarge(size, maxBytes));
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onClose = () => {
      stop();
      reject(new ConnectError("the caller closed the call", Code.Canceled));
    };
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onClose);
    request.on("close", onClose);
  });
}

function tooLarge(size: number, maxBytes: number): ConnectError {
  return new ConnectError(
    `message size ${size} is larger than configured readMaxBytes ${maxBytes}`,
    Code.ResourceExhausted,
  );
}

/** The request headers as connect hands them to interceptors and handlers. */
function headersOf(request: http.IncomingMessage): Headers {
  const header = new Headers();
  const raw = request.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) header.append(raw[i] as string, raw[i + 1] as string);
  return header;
}

function urlOf(request: http.IncomingMessage): string {
  const scheme = "encrypted" in request.socket ? "https" : "http";
  return `${scheme}://${request.headers.host ?? "localhost"}${request.url ?? ""}`;
}

function copyHeaders(from: Headers, to: Headers): void {
  if (from === to) return;
  from.forEach((value, key) => {
    to.set(key, value);
  });
}

function headerOf(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
