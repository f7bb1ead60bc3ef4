/**
 * The unary calls of the service transports (service-transport.ts): the Connect protocol, binary,
 * one `node:http` request per call over a keep-alive agent. What connect's own transport
 * (`createTransport` of `@connectrpc/connect/protocol-connect` over connect-node's HTTP/1.1 client) does
 * per call that this does not (the profiles in test/bench/README.md):
 * - two AbortControllers, a deadline signal and an abort with a new DOMException at the end of every
 *   call (`runUnaryCall`): here one timer, and a signal only for an interceptor that reads `req.signal`;
 * - the interceptor chain, the method's serializers and its URL made again for every call: here once;
 * - the request body and the answer passed through async iterables, the answer's headers copied into
 *   `Headers` three times, the URL parsed twice, headers and body sent as two socket writes.
 * The protocol is connect's (`connect-protocol-version`, `connect-timeout-ms`, `trailer-` headers,
 * the JSON error body parsed by connect's `errorFromJsonBytes`, `codeFromHttpStatus` otherwise), and so
 * are the errors of failed requests (`errorOf`), so the gateway's 503 rule (gateway/src/http/error-map.ts)
 * sees the same codes: refused or unresolvable → UNAVAILABLE, reset → ABORTED, deadline → DEADLINE_EXCEEDED.
 * It follows connect-es exactly at the pinned release (connect-es-pin.ts says why, and what to check on
 * an upgrade).
 */
import {
  ClientRequest,
  type Agent as HttpAgent,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from "node:http";
import { create, type DescMethodUnary, fromBinary, toBinary } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ContextValues,
  createContextKey,
  createContextValues,
  type Interceptor,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import {
  codeFromHttpStatus,
  errorFromJsonBytes,
  parseContentType,
} from "@connectrpc/connect/protocol-connect";
import { readAppVersion } from "../app-version.js";
import { CONNECT_ES_VERSION } from "./connect-es-pin.js";

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

export interface Http1UnaryOptions {
  /** e.g. `http://ledger:50053`; `https://` with an `https.Agent` for mutual TLS. */
  readonly baseUrl: string;
  readonly agent: HttpAgent;
  /** Outermost first, as connect's `interceptors` option. */
  readonly interceptors: readonly Interceptor[];
  /** The deadline of a call that names none; 0 or less in a call's options means none. */
  readonly defaultTimeoutMs: number;
}

type UnaryCall = (req: UnaryRequest) => Promise<UnaryResponse>;

/** The caller's signal and the deadline of one call, for the request at the end of the chain. */
interface CallLimits {
  readonly signal: AbortSignal | undefined;
  readonly deadline: number | undefined;
}

const CALL_LIMITS = createContextKey<CallLimits | undefined>(undefined, { description: "call limits" });

/** A transport's `unary`: Connect binary over HTTP/1.1 through `agent`, inside `interceptors`. */
export function createHttp1UnaryClient(options: Http1UnaryOptions): Transport["unary"] {
  const base = new URL(options.baseUrl);
  const target = {
    agent: options.agent,
    protocol: base.protocol,
    hostname: base.hostname,
    port: base.port,
    pathPrefix: base.pathname.replace(/\/$/, ""),
  };
  const next = options.interceptors.reduceRight(
    (inner, interceptor) => interceptor(inner as Parameters<Interceptor>[0]) as UnaryCall,
    (req: UnaryRequest) => send(target, req),
  );
  const unary = async (
    method: DescMethodUnary,
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    header: ConstructorParameters<typeof Headers>[0],
    message: unknown,
    contextValues: ContextValues | undefined,
  ): Promise<UnaryResponse> => {
    const timeout =
      timeoutMs === undefined ? options.defaultTimeoutMs : timeoutMs > 0 ? timeoutMs : undefined;
    const limits: CallLimits = { signal, deadline: timeout === undefined ? undefined : Date.now() + timeout };
    const values = (contextValues ?? createContextValues()).set(CALL_LIMITS, limits);
    let callSignal: LinkedSignal | undefined;
    const req: UnaryRequest = {
      stream: false,
      service: method.parent,
      method,
      requestMethod: "POST",
      url: `${options.baseUrl.replace(/\/$/, "")}/${method.parent.typeName}/${method.name}`,
      header: requestHeader(header, timeout),
      contextValues: values,
      message: create(method.input, message as never),
      // Made only if an interceptor reads it; it aborts when the caller's signal or the deadline does.
      get signal() {
        callSignal ??= new LinkedSignal(limits);
        return callSignal.signal;
      },
    };
    let res: UnaryResponse;
    try {
      res = await next(req);
    } catch (e) {
      const error =
        limits.deadline !== undefined && Date.now() >= limits.deadline ? deadlineExceeded() : errorOf(e);
      // As connect's runUnaryCall: a signal handed out aborts with the call's error.
      callSignal?.end(error);
      throw error;
    }
    callSignal?.end();
    return res;
  };
  return unary as Transport["unary"];
}

function requestHeader(
  init: ConstructorParameters<typeof Headers>[0],
  timeoutMs: number | undefined,
): Headers {
  const header = new Headers(init);
  if (timeoutMs !== undefined) header.set("connect-timeout-ms", String(timeoutMs));
  header.set("content-type", "application/proto");
  header.set("connect-protocol-version", "1");
  if (!header.has("user-agent")) header.set("user-agent", userAgent());
  return header;
}

let agentName: string | undefined;

/**
 * What this client is, and the connect-es release whose wire format it follows (the servers read
 * nothing from it; it tells a person reading logs or captures which client sent a call).
 */
export function userAgent(): string {
  agentName ??= `payouts-rpc/${readAppVersion()} (connect-es/${CONNECT_ES_VERSION} wire compatible)`;
  return agentName;
}

function deadlineExceeded(): ConnectError {
  return new ConnectError("the operation timed out", Code.DeadlineExceeded);
}

/** An interceptor's `req.signal`: aborts with the caller's signal, at the deadline, and when the call ends. */
class LinkedSignal {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(private readonly limits: CallLimits) {
    const left = limits.deadline === undefined ? undefined : limits.deadline - Date.now();
    if (limits.signal?.aborted) this.controller.abort(limits.signal.reason);
    else if (left !== undefined && left <= 0) this.controller.abort(deadlineExceeded());
    else {
      limits.signal?.addEventListener("abort", this.onAbort);
      if (left !== undefined) this.timer = setTimeout(() => this.controller.abort(deadlineExceeded()), left);
    }
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The call is over (failed with `reason`, if given): the signal aborts, its timer is cleared. */
  end(reason?: ConnectError): void {
    clearTimeout(this.timer);
    this.limits.signal?.removeEventListener("abort", this.onAbort);
    this.controller.abort(reason);
  }

  private readonly onAbort = () => this.controller.abort(this.limits.signal?.reason);
}

interface Target {
  readonly agent: HttpAgent;
  readonly protocol: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathPrefix: string;
}

/**
 * The innermost step: one HTTP/1.1 request (headers and body in one write), its whole answer read.
 * `new ClientRequest` is what `http.request` and `https.request` make (the agent's protocol decides),
 * minus the HTTP instrumentation's wrapper around them, which parsed every call's URL (2 % of the
 * gateway's busy time) only to find the request is one it ignores (service-transport.ts).
 */
function send(target: Target, req: UnaryRequest): Promise<UnaryResponse> {
  const limits = req.contextValues.get(CALL_LIMITS) ?? { signal: req.signal, deadline: undefined };
  const body = toBinary(req.method.input, req.message);
  const headers: OutgoingHttpHeaders = { "content-length": body.byteLength };
  req.header.forEach((value, key) => {
    headers[key] = value;
  });
  return new Promise((resolve, reject) => {
    if (limits.signal?.aborted) {
      reject(ConnectError.from(limits.signal.reason));
      return;
    }
    const request = new ClientRequest({
      agent: target.agent,
      protocol: target.protocol,
      hostname: target.hostname,
      port: target.port,
      path: `${target.pathPrefix}/${req.method.parent.typeName}/${req.method.name}`,
      method: "POST",
      headers,
    });
    let settled = false;
    const settle = (error: ConnectError | undefined, response?: UnaryResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      limits.signal?.removeEventListener("abort", onAbort);
      if (error === undefined) {
        resolve(response as UnaryResponse);
        return;
      }
      reject(error);
      request.destroy(error);
    };
    const onAbort = () => settle(ConnectError.from(limits.signal?.reason));
    limits.signal?.addEventListener("abort", onAbort);
    const left = limits.deadline === undefined ? undefined : limits.deadline - Date.now();
    const timer =
      left === undefined ? undefined : setTimeout(() => settle(deadlineExceeded()), Math.max(left, 0));
    request.on("error", (error) => settle(errorOf(error)));
    request.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", (error) => settle(errorOf(error)));
      res.on("close", () => {
        if (!res.complete)
          settle(new ConnectError("the connection closed before the answer ended", Code.Aborted));
      });
      res.on("end", () => {
        try {
          settle(
            undefined,
            answerOf(req.method, res, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)),
          );
        } catch (e) {
          settle(errorOf(e));
        }
      });
    });
    request.end(body);
  });
}

/** The Connect unary answer: the message, or the error it carries (connect's validateResponse rules). */
function answerOf(method: DescMethodUnary, res: IncomingMessage, body: Buffer): UnaryResponse {
  const header = new Headers();
  const trailer = new Headers();
  const raw = res.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = (raw[i] as string).toLowerCase();
    if (key.startsWith("trailer-")) trailer.append(key.substring(8), raw[i + 1] as string);
    else header.append(key, raw[i + 1] as string);
  }
  const type = parseContentType(header.get("content-type"));
  const status = res.statusCode ?? 0;
  if (status !== 200) {
    const fromStatus = new ConnectError(`HTTP ${status}`, codeFromHttpStatus(status), header);
    if (type === undefined || type.binary) throw fromStatus;
    const metadata = new Headers(header);
    trailer.forEach((value, key) => {
      metadata.append(key, value);
    });
    throw errorFromJsonBytes(body, metadata, fromStatus);
  }
  const encoding = header.get("content-encoding");
  if (encoding !== null && encoding.toLowerCase() !== "identity") {
    throw new ConnectError(`unsupported response encoding "${encoding}"`, Code.Internal, header);
  }
  if (type?.binary !== true || type.stream) {
    const mime = header.get("content-type");
    throw new ConnectError(
      `unsupported content type ${mime}`,
      type === undefined ? Code.Unknown : Code.Internal,
      header,
    );
  }
  let message: UnaryResponse["message"];
  try {
    message = fromBinary(method.output, body);
  } catch (e) {
    throw new ConnectError(`parse binary: ${e instanceof Error ? e.message : String(e)}`, Code.Internal);
  }
  return { stream: false, service: method.parent, method, header, trailer, message };
}
