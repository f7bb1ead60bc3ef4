/**
 * The Connect unary protocol as connect-unary-handler.ts serves it, against a real listener: the
 * platform's server (startGrpcServer: tracing, metrics and caller-check interceptors) called with the
 * services' own transport and with raw HTTP/1.1 requests.
 */
import http from "node:http";
import http2 from "node:http2";
import { create, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  type ConnectRouter,
  createClient,
  type HandlerContext,
  type Transport,
} from "@connectrpc/connect";
import { compressionGzip, createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import {
  PreviewQuotationsRequestSchema,
  type PreviewQuotationsResponseSchema,
  PricingService,
} from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { afterAll, describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "../database/database-unavailable.js";
import { createLogger } from "../logging/logger.js";
import type { ServiceCaller } from "./caller-allowlist.js";
import { createRpcHandler } from "./connect-unary-handler.js";
import { serverInterceptors, startGrpcServer } from "./grpc-server.js";
import { listenRpc } from "./rpc-listener.js";
import { callerOf } from "./service-auth.js";
import {
  generateServiceCredentials,
  signerOf,
  transportSignedBy,
  verifierOf,
} from "./service-credentials.js";
import { errorDetailOf, serviceError } from "./service-error.js";
import { createServiceTransport } from "./service-transport.js";

const PATH = "/payouts.pricing.v1.PricingService/PreviewQuotations";
const credentials = generateServiceCredentials();
const tokens = { gateway: await signerOf(credentials, "gateway").tokenFor("pricing") };
/** A transport whose calls carry `caller`'s tokens for pricing, the service these tests serve. */
const signedAs = (transport: Transport, caller: ServiceCaller): Transport =>
  transportSignedBy(transport, signerOf(credentials, caller), "pricing");

/** What each call's handler saw of its context, by partner_id. */
const seen = new Map<string, { context: HandlerContext; abortReason?: unknown }>();

/** PreviewQuotations whose behaviour is chosen by partner_id; `currency` is echoed back. */
async function preview(
  req: { partnerId: string; currency: string },
  ctx: HandlerContext,
): Promise<MessageInitShape<typeof PreviewQuotationsResponseSchema>> {
  const record = { context: ctx } as { context: HandlerContext; abortReason?: unknown };
  seen.set(req.partnerId, record);
  const [kind, arg] = req.partnerId.split(":");
  switch (kind) {
    case "ok":
      return { quotations: [{ currency: req.currency }] };
    case "bad-header":
      ctx.responseHeader.set("x-answer", "yes");
      (ctx.responseHeader as unknown as { forEach: Headers["forEach"] }).forEach = (each) =>
        each("line\nbreak", "x-injected", ctx.responseHeader);
      return {};
    case "headers":
      ctx.responseHeader.set("x-answer", "yes");
      ctx.responseTrailer.set("x-summary", "done");
      return {};
    case "code":
      throw new ConnectError(`failing with ${arg}`, Number(arg) as Code, { "x-why": "asked" });
    case "detail":
      throw serviceError<"QUOTE_EXPIRED">("QUOTE_EXPIRED", "the quote expired", {
        field: "quote_id",
        code: Code.FailedPrecondition,
      });
    case "database":
      throw new DatabaseUnavailableError("not-applied", new Error("connection refused"));
    case "crash":
      throw new Error("secret internals");
    case "wait":
      // Waits for the call's signal: the deadline, the caller leaving, or the end of the call.
      return new Promise((_, reject) => {
        const aborted = () => {
          record.abortReason = ctx.signal.reason;
          reject(ctx.signal.reason);
        };
        if (ctx.signal.aborted) aborted();
        else ctx.signal.addEventListener("abort", aborted);
      });
    default:
      return {};
  }
}

const routes = (router: ConnectRouter) => {
  router.rpc(PricingService.method.previewQuotations, preview);
};

interface RawAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** One raw HTTP/1.1 POST; `chunked` sends the body without a content-length. */
function post(
  port: number,
  path: string,
  body: Uint8Array,
  headers: http.OutgoingHttpHeaders = {},
  chunked = false,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path,
        agent: false,
        headers: {
          "content-type": "application/proto",
          authorization: `Bearer ${tokens.gateway}`,
          ...(chunked ? {} : { "content-length": body.byteLength }),
          ...headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    request.on("error", reject);
    if (!chunked) {
      request.end(body);
      return;
    }
    request.flushHeaders();
    request.write(body);
    request.end();
  });
}

/** One HTTP/2 request (prior knowledge, as gRPC clients speak it): the answer's status and headers. */
async function h2Post(
  port: number,
  path: string,
  headers: http2.OutgoingHttpHeaders,
  body: Uint8Array,
): Promise<{ status: number; headers: http2.IncomingHttpHeaders }> {
  const session = http2.connect(`http://127.0.0.1:${port}`);
  session.on("error", () => {});
  try {
    const stream = session.request({ ":method": "POST", ":path": path, te: "trailers", ...headers });
    stream.on("error", () => {});
    stream.end(body);
    const answer = await new Promise<http2.IncomingHttpHeaders>((resolve) =>
      stream.once("response", resolve),
    );
    stream.resume();
    return { status: Number(answer[":status"]), headers: answer };
  } finally {
    session.close();
  }
}

function previewBody(partnerId: string): Uint8Array {
  return toBinary(PreviewQuotationsRequestSchema, create(PreviewQuotationsRequestSchema, { partnerId }));
}

function jsonOf(answer: RawAnswer): { code?: string; message?: string } {
  return JSON.parse(answer.body.toString("utf8"));
}

async function failureOf(call: Promise<unknown>): Promise<ConnectError> {
  try {
    await call;
  } catch (error) {
    return ConnectError.from(error);
  }
  throw new Error("the call succeeded");
}

describe("unary Connect calls over HTTP/1.1 (connect-unary-handler.ts)", async () => {
  const server = await startGrpcServer({
    name: "test",
    port: 0,
    serviceNames: ["payouts.pricing.v1.PricingService"],
    routes,
    auth: { verifier: verifierOf(credentials, "pricing") },
    logger: createLogger({ service: "test", level: "silent" }),
  });
  afterAll(() => server.close());
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const client = createClient(PricingService, signedAs(createServiceTransport(baseUrl), "gateway"));

  it("answers with the message, the handler's headers and its trailers (as trailer- headers)", async () => {
    const answer = await client.previewQuotations({ partnerId: "ok", currency: "PHP" });
    expect(answer.quotations.map((q) => q.currency)).toEqual(["PHP"]);

    let header = new Headers();
    let trailer = new Headers();
    await client.previewQuotations(
      { partnerId: "headers" },
      {
        onHeader: (h) => {
          header = h;
        },
        onTrailer: (t) => {
          trailer = t;
        },
      },
    );
    expect(header.get("x-answer")).toBe("yes");
    expect(trailer.get("x-summary")).toBe("done");

    const raw = await post(server.port, PATH, previewBody("ok"));
    expect(raw.status).toBe(200);
    expect(raw.headers["content-type"]).toBe("application/proto");
    expect(Number(raw.headers["content-length"])).toBe(raw.body.byteLength);
  });

  it("gives handlers connect's HandlerContext: caller, deadline, headers, URL, protocol", async () => {
    await client.previewQuotations(
      { partnerId: "ok:context" },
      { timeoutMs: 5_000, headers: { "x-probe": "1" } },
    );
    const { context } = seen.get("ok:context") ?? {};
    expect(callerOf(context as HandlerContext)).toBe("gateway");
    expect(context?.timeoutMs()).toBeGreaterThan(0);
    expect(context?.timeoutMs()).toBeLessThanOrEqual(5_000);
    expect(context?.requestHeader.get("x-probe")).toBe("1");
    expect(context?.requestMethod).toBe("POST");
    expect(context?.protocolName).toBe("connect");
    expect(context?.url).toBe(`${baseUrl}${PATH}`);
    expect(context?.method).toBe(PricingService.method.previewQuotations);
    // The call is over: a signal asked for afterwards is already aborted.
    expect(context?.signal.aborted).toBe(true);
  });

  it("maps every error code to its HTTP status and Connect's JSON error body, metadata as headers", async () => {
    const statusOf: Record<number, number> = {
      [Code.Canceled]: 499,
      [Code.Unknown]: 500,
      [Code.InvalidArgument]: 400,
      [Code.DeadlineExceeded]: 504,
      [Code.NotFound]: 404,
      [Code.AlreadyExists]: 409,
      [Code.PermissionDenied]: 403,
      [Code.ResourceExhausted]: 429,
      [Code.FailedPrecondition]: 400,
      [Code.Aborted]: 409,
      [Code.OutOfRange]: 400,
      [Code.Unimplemented]: 501,
      [Code.Internal]: 500,
      [Code.Unavailable]: 503,
      [Code.DataLoss]: 500,
      [Code.Unauthenticated]: 401,
    };
    for (const [code, status] of Object.entries(statusOf)) {
      const raw = await post(server.port, PATH, previewBody(`code:${code}`));
      expect(raw.status, `code ${code}`).toBe(status);
      expect(raw.headers["content-type"]).toBe("application/json");
      expect(raw.headers["x-why"]).toBe("asked");
      expect(jsonOf(raw).message).toBe(`failing with ${code}`);

      const error = await failureOf(client.previewQuotations({ partnerId: `code:${code}` }));
      expect(error.code).toBe(Number(code));
      expect(error.rawMessage).toBe(`failing with ${code}`);
      expect(error.metadata.get("x-why")).toBe("asked");
    }
    expect(jsonOf(await post(server.port, PATH, previewBody("code:5"))).code).toBe("not_found");
  });

  it("carries ErrorDetails: documented reasons and the 503 of a database that is down", async () => {
    const rejected = await failureOf(client.previewQuotations({ partnerId: "detail" }));
    expect(rejected.code).toBe(Code.FailedPrecondition);
    expect(errorDetailOf(rejected)).toMatchObject({ reason: "QUOTE_EXPIRED", field: "quote_id" });

    const down = await failureOf(client.previewQuotations({ partnerId: "database" }));
    expect(down.code).toBe(Code.Unavailable);
    expect(errorDetailOf(down)).toMatchObject({
      reason: "SERVICE_UNAVAILABLE",
      metadata: { retry_after_seconds: "2", outcome: "not-applied" },
    });
  });

  it("resets the connection when the answer cannot be written, and keeps serving", async () => {
    const error = await failureOf(client.previewQuotations({ partnerId: "bad-header" }));
    expect(error.code).toBe(Code.Aborted);
    expect(
      (await client.previewQuotations({ partnerId: "ok", currency: "THB" })).quotations[0]?.currency,
    ).toBe("THB");
  });

  it("answers an unexpected failure as INTERNAL without its message", async () => {
    const raw = await post(server.port, PATH, previewBody("crash"));
    expect(raw.status).toBe(500);
    expect(jsonOf(raw)).toEqual({ code: "internal", message: "internal error" });
    expect(raw.body.toString()).not.toContain("secret");
  });

  it("aborts the handler's signal when connect-timeout-ms passes: DEADLINE_EXCEEDED", async () => {
    const raw = await post(server.port, PATH, previewBody("wait:deadline"), { "connect-timeout-ms": "50" });
    expect(raw.status).toBe(504);
    expect(jsonOf(raw).code).toBe("deadline_exceeded");
    expect(ConnectError.from(seen.get("wait:deadline")?.abortReason).code).toBe(Code.DeadlineExceeded);

    const zero = await post(server.port, PATH, previewBody("wait:zero"), { "connect-timeout-ms": "0" });
    expect(jsonOf(zero).code).toBe("deadline_exceeded");

    const client50 = await failureOf(
      client.previewQuotations({ partnerId: "wait:client" }, { timeoutMs: 50 }),
    );
    expect(client50.code).toBe(Code.DeadlineExceeded);
  });

  it("refuses a malformed connect-timeout-ms as INVALID_ARGUMENT", async () => {
    const raw = await post(server.port, PATH, previewBody("ok"), { "connect-timeout-ms": "soon" });
    expect(raw.status).toBe(400);
    expect(jsonOf(raw).code).toBe("invalid_argument");
  });

  it("aborts the handler's signal with CANCELED when the caller goes away", async () => {
    const request = http.request({
      host: "127.0.0.1",
      port: server.port,
      method: "POST",
      path: PATH,
      agent: false,
      headers: { "content-type": "application/proto", authorization: `Bearer ${tokens.gateway}` },
    });
    request.on("error", () => {});
    request.end(previewBody("wait:gone"));
    await expect.poll(() => seen.has("wait:gone")).toBe(true);
    request.destroy();
    await expect.poll(() => seen.get("wait:gone")?.abortReason).toBeDefined();
    expect(ConnectError.from(seen.get("wait:gone")?.abortReason).code).toBe(Code.Canceled);
  });

  it("answers an unknown method 404 (UNIMPLEMENTED for Connect clients)", async () => {
    const raw = await post(server.port, "/payouts.pricing.v1.PricingService/Nothing", previewBody("ok"));
    expect(raw.status).toBe(404);
    expect(jsonOf(raw).code).toBe("unimplemented");
    const error = await failureOf(client.createQuote({ partnerId: "p" }));
    expect(error.code).toBe(Code.Unimplemented);
  });

  it("answers an unknown gRPC method or service with grpc-status 12 (UNIMPLEMENTED)", async () => {
    for (const path of [
      "/payouts.pricing.v1.PricingService/Nothing",
      // What `grpcurl list` asks first.
      "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
      "/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
    ]) {
      const answer = await h2Post(server.port, path, { "content-type": "application/grpc" }, Buffer.alloc(5));
      expect(answer.status, path).toBe(200);
      expect(answer.headers["grpc-status"], path).toBe("12");
    }
    const grpc = createClient(PricingService, signedAs(createGrpcTransport({ baseUrl }), "gateway"));
    expect((await failureOf(grpc.createQuote({ partnerId: "p" }))).code).toBe(Code.Unimplemented);
  });

  it("refuses a call without a valid credential before reading or decoding its body", async () => {
    // Not a message, and larger than any body the server accepts: read and decoded, it would be
    // RESOURCE_EXHAUSTED or INVALID_ARGUMENT; refused from the headers it is UNAUTHENTICATED.
    const garbage = Buffer.alloc(5 * 1024 * 1024, 0xff);
    const connect = await post(server.port, PATH, garbage, { authorization: "Bearer forged" });
    expect(connect.status).toBe(401);
    expect(jsonOf(connect).code).toBe("unauthenticated");
    expect(connect.headers.connection).toBe("close");
    const chunked = await post(server.port, PATH, garbage, { authorization: "Bearer forged" }, true);
    expect(jsonOf(chunked).code).toBe("unauthenticated");
    const overGrpc = await h2Post(
      server.port,
      PATH,
      { "content-type": "application/grpc", authorization: "Bearer forged" },
      garbage,
    );
    expect(overGrpc.status).toBe(200);
    expect(overGrpc.headers["grpc-status"]).toBe(String(Code.Unauthenticated));
  });

  it("refuses a body that is not the request message as INVALID_ARGUMENT", async () => {
    const raw = await post(server.port, PATH, Uint8Array.from([0x0a, 0xff, 0xff, 0xff]));
    expect(raw.status).toBe(400);
    expect(jsonOf(raw).code).toBe("invalid_argument");
    expect(jsonOf(raw).message).toMatch(/^parse binary: /);
  });

  it("refuses a missing, wrong or unlisted caller token before the handler runs", async () => {
    const anonymous = createClient(PricingService, createServiceTransport(baseUrl));
    expect((await failureOf(anonymous.previewQuotations({ partnerId: "ok:anonymous" }))).code).toBe(
      Code.Unauthenticated,
    );
    const raw = await post(server.port, PATH, previewBody("ok:forged"), {
      authorization: "Bearer gateway.forged",
    });
    expect(raw.status).toBe(401);
    const ledger = createClient(PricingService, signedAs(createServiceTransport(baseUrl), "ledger"));
    expect((await failureOf(ledger.previewQuotations({ partnerId: "ok:ledger" }))).code).toBe(
      Code.PermissionDenied,
    );
    expect(seen.has("ok:anonymous") || seen.has("ok:forged") || seen.has("ok:ledger")).toBe(false);
  });

  it("leaves every other protocol to connect-node on the same port: JSON, gzip, gRPC over h2c", async () => {
    const json = createClient(
      PricingService,
      signedAs(createConnectTransport({ baseUrl, httpVersion: "1.1" }), "gateway"),
    );
    expect((await json.previewQuotations({ partnerId: "ok", currency: "IDR" })).quotations[0]?.currency).toBe(
      "IDR",
    );
    const grpc = createClient(PricingService, signedAs(createGrpcTransport({ baseUrl }), "gateway"));
    expect((await grpc.previewQuotations({ partnerId: "ok", currency: "VND" })).quotations[0]?.currency).toBe(
      "VND",
    );
    const zipped = createClient(
      PricingService,
      signedAs(
        createConnectTransport({
          baseUrl,
          httpVersion: "1.1",
          useBinaryFormat: true,
          sendCompression: compressionGzip,
          compressMinBytes: 0,
        }),
        "gateway",
      ),
    );
    expect(
      (await zipped.previewQuotations({ partnerId: "ok", currency: "MYR" })).quotations[0]?.currency,
    ).toBe("MYR");
    expect((await failureOf(grpc.previewQuotations({ partnerId: "code:5" }))).code).toBe(Code.NotFound);
  });
});

describe("request size limit", async () => {
  const listener = await listenRpc(
    createRpcHandler({
      routes,
      interceptors: serverInterceptors({ verifier: verifierOf(credentials, "pricing") }),
      readMaxBytes: 64,
    }),
    0,
    "127.0.0.1",
  );
  afterAll(() => listener.close());
  const padded = (bytes: number) =>
    toBinary(
      PreviewQuotationsRequestSchema,
      create(PreviewQuotationsRequestSchema, { partnerId: "ok", currency: "x".repeat(bytes - 6) }),
    );

  it("accepts a body of the limit, refuses a larger one (declared or chunked) as RESOURCE_EXHAUSTED", async () => {
    expect(padded(64).byteLength).toBe(64);
    expect((await post(listener.port, PATH, padded(64))).status).toBe(200);
    expect((await post(listener.port, PATH, padded(64), {}, true)).status).toBe(200);

    const declared = await post(listener.port, PATH, padded(65));
    expect(declared.status).toBe(429);
    expect(jsonOf(declared).code).toBe("resource_exhausted");
    expect(declared.headers.connection).toBe("close");

    const chunked = await post(listener.port, PATH, padded(65), {}, true);
    expect(chunked.status).toBe(429);
    expect(jsonOf(chunked).code).toBe("resource_exhausted");
  });
});
