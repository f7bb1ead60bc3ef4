/**
 * The platform's RPC server against connect-node's, request by request. The same service
 * implementation is served twice: by connect-node's own handler (`connectNodeAdapter` on a node:http
 * and a node:http2 server) and by the platform's (`createRpcHandler` behind `listenRpc`, one port for
 * both HTTP versions). Every request below is sent, as raw bytes, to both; the answers must have the
 * same status, the same headers (but those in TRANSPORT_HEADERS) and the same body.
 *
 * The platform answers HTTP/1.1 POSTs with `application/proto` and no compression itself and hands
 * everything else to connect-node, so the cases cover both of its paths: each says which it takes.
 * A difference the platform means to have is listed in the case (`differs`), with its reason and an
 * assertion of what exactly differs; nothing else may differ.
 */
import http from "node:http";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { gunzipSync, gzipSync } from "node:zlib";
import { create, toBinary } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import { codeToHttpStatus } from "@connectrpc/connect/protocol-connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { createRpcHandler } from "@payouts/platform/internal/rpc/connect-unary-handler";
import { createHttp1UnaryClient } from "@payouts/platform/internal/rpc/http1-unary-client";
import { listenRpc, type RpcListener } from "@payouts/platform/internal/rpc/rpc-listener";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConformancePayloadSchema,
  ConformanceService,
  IdempotentUnaryRequestSchema,
  UnaryRequestSchema,
  type UnaryResponseDefinition,
} from "./conformance/gen/connectrpc/conformance/v1/service_pb.js";

/** Small, so that "oversized" needs no megabytes; the same on both servers. */
const READ_MAX_BYTES = 2048;
const UNARY = `/${ConformanceService.typeName}/Unary`;
const IDEMPOTENT = `/${ConformanceService.typeName}/IdempotentUnary`;

/**
 * Headers about the connection or the moment, not the call: `date` changes every second; node:http
 * adds `connection`/`keep-alive` to every HTTP/1.1 answer itself (the platform's listener sets a longer
 * keep-alive timeout, so `keep-alive: timeout=65` differs from node's default `timeout=5`).
 */
const TRANSPORT_HEADERS = new Set(["date", "connection", "keep-alive"]);

/**
 * The service both servers serve. Unary answers as its request's response definition says (headers,
 * trailers, data, a delay or an error with details); a request header chooses the other
 * behaviours: `x-fail: plain` throws a plain Error, `x-fail: relay` rethrows an error as a service
 * relays one it received from another service (its metadata holds the upstream answer's headers).
 */
function routes(router: ConnectRouter): void {
  const answer = async (
    request: { readonly responseDefinition?: UnaryResponseDefinition | undefined },
    ctx: HandlerContext,
  ) => {
    const definition = request.responseDefinition;
    for (const h of definition?.responseHeaders ?? [])
      for (const v of h.value) ctx.responseHeader.append(h.name, v);
    for (const h of definition?.responseTrailers ?? [])
      for (const v of h.value) ctx.responseTrailer.append(h.name, v);
    const fail = ctx.requestHeader.get("x-fail");
    if (fail === "plain") throw new Error("secret internals");
    if (fail === "relay") {
      // What the platform's client makes of a proxy's "502 Bad Gateway" page from another service.
      throw new ConnectError("HTTP 502", Code.Unavailable, {
        "content-type": "text/html",
        "content-length": "4096",
        "x-upstream": "lookup",
      });
    }
    if (definition?.response.case === "error") {
      const error = definition.response.value;
      const failure = new ConnectError(error.message ?? "", error.code as number as Code, {
        "x-why": "asked",
      });
      for (const any of error.details) {
        failure.details.push({ type: any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1), value: any.value });
      }
      throw failure;
    }
    if (definition?.responseDelayMs) await new Promise((r) => setTimeout(r, definition.responseDelayMs));
    return {
      payload: create(ConformancePayloadSchema, {
        ...(definition?.response.case === "responseData" ? { data: definition.response.value } : {}),
      }),
    };
  };
  router.service(ConformanceService, {
    unary: (request, ctx) => answer(request, ctx),
    idempotentUnary: (request, ctx) => answer(request, ctx),
  });
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

interface RawRequest {
  readonly method?: "POST" | "GET";
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Uint8Array;
}

type Version = "1.1" | "2";

interface Case {
  readonly name: string;
  /** The HTTP status connect-node answers with: the case does what its name says. */
  readonly status: number;
  /** Which of the platform's paths answers it over HTTP/1.1 (over HTTP/2 connect-node always does). */
  readonly platformPath: "own" | "connect-node";
  readonly request: RawRequest;
  /** An intended difference: why, and an assertion of exactly what differs (the rest must be equal). */
  readonly differs?: {
    readonly reason: string;
    readonly versions: readonly Version[];
    readonly check: (reference: Answer, platform: Answer) => { reference: Answer; platform: Answer };
  };
}

const binary = (init: Parameters<typeof create<typeof UnaryRequestSchema>>[1]) =>
  toBinary(UnaryRequestSchema, create(UnaryRequestSchema, init));
const PROTO = { "content-type": "application/proto", "connect-protocol-version": "1" };
const JSON_TYPE = { "content-type": "application/json", "connect-protocol-version": "1" };
const errorOf = (code: Code, message: string, withDetail = false) =>
  binary({
    responseDefinition: {
      response: {
        case: "error",
        value: {
          code: code as number,
          message,
          details: withDetail
            ? [
                {
                  typeUrl: "type.googleapis.com/connectrpc.conformance.v1.Header",
                  value: new Uint8Array([10, 1, 120]),
                },
              ]
            : [],
        },
      },
    },
  });

const CODES = Object.values(Code).filter((c): c is Code => typeof c === "number");

const CASES: Case[] = [
  {
    name: "success",
    status: 200,
    platformPath: "own",
    request: {
      path: UNARY,
      headers: PROTO,
      body: binary({
        responseDefinition: { response: { case: "responseData", value: new Uint8Array([1, 2, 3]) } },
      }),
    },
  },
  {
    name: "success, empty request message",
    status: 200,
    platformPath: "own",
    request: { path: UNARY, headers: PROTO, body: new Uint8Array(0) },
  },
  {
    name: "success with response headers and trailers",
    status: 200,
    platformPath: "own",
    request: {
      path: UNARY,
      headers: PROTO,
      body: binary({
        responseDefinition: {
          responseHeaders: [{ name: "x-answer", value: ["yes"] }],
          responseTrailers: [{ name: "x-summary", value: ["done"] }],
        },
      }),
    },
  },
  {
    name: "success, large answer to a caller that accepts gzip",
    status: 200,
    platformPath: "own",
    request: {
      path: UNARY,
      headers: { ...PROTO, "accept-encoding": "gzip" },
      body: binary({
        responseDefinition: { response: { case: "responseData", value: new Uint8Array(1500).fill(65) } },
      }),
    },
    differs: {
      reason:
        "the platform's own path never compresses an answer (Connect lets a server answer uncompressed " +
        "whatever the caller accepts; the services' client accepts no compression, and gzip would cost " +
        "CPU on both ends of a call inside the cluster); connect-node gzips answers of 1 KiB and more",
      versions: ["1.1"],
      check: (reference, platform) => {
        expect(reference.headers["content-encoding"]).toBe("gzip");
        expect(platform.headers["content-encoding"]).toBeUndefined();
        const { "content-encoding": _, ...headers } = reference.headers;
        const body = gunzipSync(reference.body);
        return {
          reference: {
            ...reference,
            headers: { ...headers, "content-length": String(body.byteLength) },
            body,
          },
          platform,
        };
      },
    },
  },
  {
    name: "success without connect-protocol-version",
    status: 200,
    platformPath: "own",
    request: { path: UNARY, headers: { "content-type": "application/proto" }, body: binary({}) },
  },
  ...CODES.map(
    (code): Case => ({
      name: `error ${Code[code]} with metadata and a detail`,
      status: codeToHttpStatus(code),
      platformPath: "own",
      request: { path: UNARY, headers: PROTO, body: errorOf(code, `failing with ${Code[code]}`, true) },
    }),
  ),
  {
    name: "error with a non-ASCII message",
    status: 404,
    platformPath: "own",
    request: { path: UNARY, headers: PROTO, body: errorOf(Code.NotFound, "pas trouvé ✗") },
  },
  {
    name: "error thrown as a plain Error (INTERNAL, message hidden)",
    status: 500,
    platformPath: "own",
    request: { path: UNARY, headers: { ...PROTO, "x-fail": "plain" }, body: binary({}) },
  },
  {
    name: "relayed error whose metadata carries the upstream answer's content-type and content-length",
    status: 503,
    platformPath: "own",
    request: { path: UNARY, headers: { ...PROTO, "x-fail": "relay" }, body: binary({}) },
    differs: {
      reason:
        "connect-node 2.1.1 lets an error's metadata replace content-type, so its JSON error body goes out " +
        "as text/html; the platform sets content-type (and content-length) after the metadata, as " +
        "connect-es does since it stopped relaying protocol headers (after 2.1.1)",
      // Over HTTP/2 the platform's answer is connect-node's own, the same as the reference.
      versions: ["1.1"],
      check: (reference, platform) => {
        expect(reference.headers["content-type"]).toBe("text/html");
        expect(platform.headers["content-type"]).toBe("application/json");
        return {
          reference: { ...reference, headers: { ...reference.headers, "content-type": "application/json" } },
          platform,
        };
      },
    },
  },
  {
    name: "malformed binary body",
    status: 500,
    platformPath: "own",
    request: { path: UNARY, headers: PROTO, body: new Uint8Array([0x0a, 0xff, 0x01]) },
    differs: {
      reason:
        "a body that is not the request message is the caller's fault: INVALID_ARGUMENT (400), as " +
        "connect-go and gRPC answer; connect-node says INTERNAL (500)",
      versions: ["1.1"],
      check: (reference, platform) => {
        expect(reference.status).toBe(500);
        expect(platform.status).toBe(400);
        const ref = JSON.parse(reference.body.toString());
        const own = JSON.parse(platform.body.toString());
        expect(ref.code).toBe("internal");
        expect(own.code).toBe("invalid_argument");
        expect(own.message).toMatch(/^parse binary: /);
        expect(ref.message).toMatch(/^parse binary: /);
        return {
          reference: withBody(reference, { code: ref.code }),
          platform: withBody({ ...platform, status: reference.status }, { code: ref.code }),
        };
      },
    },
  },
  {
    name: "oversized body (content-length above readMaxBytes)",
    status: 429,
    platformPath: "own",
    request: {
      path: UNARY,
      headers: PROTO,
      body: binary({ requestData: new Uint8Array(READ_MAX_BYTES + 10) }),
    },
  },
  {
    name: "deadline header: a valid connect-timeout-ms, answered in time",
    status: 200,
    platformPath: "own",
    request: { path: UNARY, headers: { ...PROTO, "connect-timeout-ms": "5000" }, body: binary({}) },
  },
  {
    name: "deadline header: an invalid connect-timeout-ms",
    status: 400,
    platformPath: "own",
    request: { path: UNARY, headers: { ...PROTO, "connect-timeout-ms": "soon" }, body: binary({}) },
  },
  {
    name: "deadline header: a connect-timeout-ms of more than 10 digits",
    status: 400,
    platformPath: "own",
    request: { path: UNARY, headers: { ...PROTO, "connect-timeout-ms": "12345678901" }, body: binary({}) },
  },
  {
    name: "unknown method",
    status: 404,
    platformPath: "own",
    request: { path: `/${ConformanceService.typeName}/Nope`, headers: PROTO, body: binary({}) },
    differs: {
      reason:
        "the platform refuses a path that names no method from the headers, before reading the body, " +
        "with Connect's error body (code unimplemented) and, over HTTP/1.1, closes the connection rather " +
        "than read a body it will not use; connect-node's router answers a bare 404",
      versions: ["1.1", "2"],
      check: (reference, platform) => {
        expect(reference.status).toBe(404);
        expect(reference.body.byteLength).toBe(0);
        expect(reference.headers["content-type"]).toBeUndefined();
        expect(platform.status).toBe(404);
        expect(platform.headers["content-type"]).toBe("application/json");
        expect(JSON.parse(platform.body.toString())).toEqual({
          code: "unimplemented",
          message: `unknown method /${ConformanceService.typeName}/Nope`,
        });
        const bare = (answer: Answer): Answer => ({
          status: answer.status,
          headers: {},
          body: Buffer.alloc(0),
        });
        return { reference: bare(reference), platform: bare(platform) };
      },
    },
  },
  {
    name: "method declared but not implemented",
    status: 501,
    platformPath: "own",
    request: {
      path: `/${ConformanceService.typeName}/Unimplemented`,
      headers: PROTO,
      body: new Uint8Array(0),
    },
  },
  {
    name: "bad content type (text/plain)",
    status: 415,
    platformPath: "connect-node",
    request: { path: UNARY, headers: { "content-type": "text/plain" }, body: binary({}) },
  },
  {
    name: "streaming content type on a unary method",
    status: 415,
    platformPath: "connect-node",
    request: { path: UNARY, headers: { "content-type": "application/connect+proto" }, body: binary({}) },
  },
  {
    name: "JSON success",
    status: 200,
    platformPath: "connect-node",
    request: {
      path: UNARY,
      headers: JSON_TYPE,
      body: Buffer.from(JSON.stringify({ responseDefinition: { responseData: "AQID" } })),
    },
  },
  {
    name: "JSON error",
    status: 404,
    platformPath: "connect-node",
    request: {
      path: UNARY,
      headers: JSON_TYPE,
      body: Buffer.from(
        JSON.stringify({ responseDefinition: { error: { code: "CODE_NOT_FOUND", message: "no" } } }),
      ),
    },
  },
  {
    name: "malformed JSON body",
    status: 400,
    platformPath: "connect-node",
    request: { path: UNARY, headers: JSON_TYPE, body: Buffer.from("{not json") },
  },
  {
    name: "gzip-compressed request",
    status: 200,
    platformPath: "connect-node",
    request: {
      path: UNARY,
      headers: { ...PROTO, "content-encoding": "gzip" },
      body: gzipSync(binary({ requestData: new Uint8Array([7]) })),
    },
  },
  {
    name: "unsupported request compression",
    status: 501,
    platformPath: "connect-node",
    request: { path: UNARY, headers: { ...PROTO, "content-encoding": "snappy" }, body: binary({}) },
  },
  {
    name: "GET of a side-effect-free method",
    status: 200,
    platformPath: "connect-node",
    request: {
      method: "GET",
      path: `${IDEMPOTENT}?connect=v1&encoding=proto&base64=1&message=${Buffer.from(
        toBinary(
          IdempotentUnaryRequestSchema,
          create(IdempotentUnaryRequestSchema, { requestData: new Uint8Array([5]) }),
        ),
      ).toString("base64url")}`,
      headers: {},
    },
  },
  {
    name: "GET of a method that has side effects",
    status: 405,
    platformPath: "connect-node",
    request: { method: "GET", path: `${UNARY}?connect=v1&encoding=proto&message=`, headers: {} },
  },
];

function withBody(answer: Answer, json: unknown): Answer {
  const body = Buffer.from(JSON.stringify(json));
  return { ...answer, body, headers: { ...answer.headers, "content-length": String(body.byteLength) } };
}

let reference1: http.Server;
let reference2: http2.Http2Server;
let platform: RpcListener;

beforeAll(async () => {
  const adapter = connectNodeAdapter({ routes, readMaxBytes: READ_MAX_BYTES });
  reference1 = http.createServer(adapter);
  reference2 = http2.createServer(adapter);
  await Promise.all([listen(reference1), listen(reference2)]);
  platform = await listenRpc(createRpcHandler({ routes, readMaxBytes: READ_MAX_BYTES }), 0, "127.0.0.1");
});

afterAll(async () => {
  await platform?.close();
  await Promise.all([close(reference1), close(reference2)]);
});

describe("the platform's RPC server answers as connect-node's", () => {
  for (const c of CASES) {
    for (const version of ["1.1", "2"] as const) {
      const path = version === "2" ? "connect-node" : c.platformPath;
      it(`${c.name} — HTTP/${version}, platform path: ${path}`, async () => {
        const referencePort = portOf(version === "2" ? reference2 : reference1);
        const [reference, own] = await Promise.all([
          send(version, referencePort, c.request),
          send(version, platform.port, c.request),
        ]);
        expect(reference.status).toBe(c.status);
        const known = c.differs?.versions.includes(version) ? c.differs : undefined;
        // A listed difference must still exist: once it is gone, the list is wrong.
        if (known) expect(comparable(own)).not.toEqual(comparable(reference));
        const compared = known ? known.check(reference, own) : { reference, platform: own };
        expect(comparable(compared.platform)).toEqual(comparable(compared.reference));
        // Every answer's content-length is its body's.
        for (const answer of [reference, own]) {
          if (answer.headers["content-length"] !== undefined) {
            expect(Number(answer.headers["content-length"])).toBe(answer.body.byteLength);
          }
        }
      });
    }
  }
});

describe("deadlines", () => {
  it("a handler that outlives connect-timeout-ms and ignores its signal: both answer when it returns", async () => {
    // Neither server cuts a call short at its deadline (a handler that reads ctx.signal sees it abort):
    // the answer is the handler's, late.
    const request: RawRequest = {
      path: UNARY,
      headers: { ...PROTO, "connect-timeout-ms": "20" },
      body: binary({ responseDefinition: { responseDelayMs: 150 } }),
    };
    const [reference, own] = await Promise.all([
      send("1.1", portOf(reference1), request),
      send("1.1", platform.port, request),
    ]);
    expect(reference.status).toBe(200);
    expect(comparable(own)).toEqual(comparable(reference));
  });
});

describe("a relayed error through the platform's own client", () => {
  it("answers with its own body's content-length, not the upstream answer's", async () => {
    // JSON has no canonical form: an upstream (another Connect implementation, a proxy) may format
    // its error body differently, so the relayed error, encoded again, is shorter than the upstream's
    // content-length, which its metadata still carries.
    const upstreamBody = Buffer.from(
      JSON.stringify({ code: "failed_precondition", message: "quote expired" }, null, 2),
    );
    const upstream = http.createServer((_, res) => {
      res.writeHead(400, {
        "content-type": "application/json",
        "content-length": upstreamBody.byteLength,
        "x-upstream": "1",
      });
      res.end(upstreamBody);
    });
    await listen(upstream);
    const agent = new http.Agent({ keepAlive: true });
    const call = createHttp1UnaryClient({
      baseUrl: `http://127.0.0.1:${portOf(upstream)}`,
      agent,
      interceptors: [],
      defaultTimeoutMs: 5000,
    });
    const relaying = await listenRpc(
      createRpcHandler({
        routes: (router) =>
          router.service(ConformanceService, {
            // Lets the upstream's error go through, as a handler that does not catch it does.
            unary: async (request) =>
              (
                await call(
                  ConformanceService.method.unary,
                  undefined,
                  undefined,
                  undefined,
                  request,
                  undefined,
                )
              ).message as never,
          }),
      }),
      0,
      "127.0.0.1",
    );
    try {
      const answer = await send(
        "1.1",
        relaying.port,
        { path: UNARY, headers: PROTO, body: binary({}) },
        3000,
      );
      expect(answer.status).toBe(400);
      expect(Number(answer.headers["content-length"])).toBe(answer.body.byteLength);
      expect(answer.headers["content-type"]).toBe("application/json");
      expect(answer.headers["x-upstream"]).toBe("1");
      const json = JSON.parse(answer.body.toString());
      expect(json).toMatchObject({ code: "failed_precondition", message: "quote expired" });
      expect(answer.body.byteLength).toBeLessThan(upstreamBody.byteLength);
    } finally {
      agent.destroy();
      await relaying.close();
      await close(upstream);
    }
  });
});

/** The answer without the transport's own headers, its body as JSON when it is JSON. */
function comparable(answer: Answer): unknown {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).filter(([k]) => !TRANSPORT_HEADERS.has(k)),
  );
  const json = (headers["content-type"] ?? "").includes("json");
  return {
    status: answer.status,
    headers,
    body:
      json && answer.body.byteLength > 0 ? JSON.parse(answer.body.toString()) : answer.body.toString("hex"),
  };
}

function send(version: Version, port: number, request: RawRequest, timeoutMs = 5000): Promise<Answer> {
  return version === "2" ? send2(port, request, timeoutMs) : send1(port, request, timeoutMs);
}

function send1(port: number, request: RawRequest, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const body = request.body ?? new Uint8Array(0);
    // A keep-alive connection of its own, so each server says itself whether it keeps the connection.
    const agent = new http.Agent({ keepAlive: true });
    const req = http.request({
      host: "127.0.0.1",
      port,
      method: request.method ?? "POST",
      path: request.path,
      agent,
      timeout: timeoutMs,
      headers:
        request.method === "GET"
          ? request.headers
          : { ...request.headers, "content-length": body.byteLength },
    });
    req.on("timeout", () => req.destroy(new Error(`no complete answer within ${timeoutMs} ms`)));
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        agent.destroy();
        resolve({ status: res.statusCode ?? 0, headers: flat(res.headers), body: Buffer.concat(chunks) });
      });
    });
    req.end(request.method === "GET" ? undefined : body);
  });
}

function send2(port: number, request: RawRequest, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    session.on("error", reject);
    const timer = setTimeout(() => {
      session.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const stream = session.request({
      ":method": request.method ?? "POST",
      ":path": request.path,
      ...request.headers,
    });
    let head: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on("response", (headers) => {
      head = headers;
    });
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", reject);
    stream.on("end", () => {
      clearTimeout(timer);
      session.close();
      const { ":status": status, ...headers } = head;
      resolve({ status: Number(status), headers: flat(headers), body: Buffer.concat(chunks) });
    });
    stream.end(request.method === "GET" ? undefined : (request.body ?? new Uint8Array(0)));
  });
}

function flat(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : String(v);
  return out;
}

function listen(server: http.Server | http2.Http2Server): Promise<void> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
}

function close(server: http.Server | http2.Http2Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

function portOf(server: http.Server | http2.Http2Server): number {
  return (server.address() as AddressInfo).port;
}
