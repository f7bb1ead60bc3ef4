/**
 * The client under test of the Connect conformance suite (`connectconformance --mode client`): the
 * platform's own service transport (`createServiceTransport`, whose unary calls go through
 * http1-unary-client.ts) calling the suite's reference server. Reads ClientCompatRequests from stdin
 * until it ends, makes each call (concurrently) and writes one ClientCompatResponse per call to stdout.
 */
import { create, type DescMessage, fromBinary, type MessageShape, toBinary } from "@bufbuild/protobuf";
import { type Any, AnySchema, anyPack, anyUnpack } from "@bufbuild/protobuf/wkt";
import { type CallOptions, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createServiceTransport } from "@payouts/platform/rpc/service-transport";
import { readSizeDelimited, writeSizeDelimited } from "./compat-io.js";
import { appendHeaders, headersOf } from "./conformance-service.js";
import {
  type ClientCompatRequest,
  ClientCompatRequestSchema,
  type ClientCompatResponse,
  ClientCompatResponseSchema,
  type ClientResponseResult,
  ClientResponseResultSchema,
} from "./gen/connectrpc/conformance/v1/client_compat_pb.js";
import {
  Codec,
  Compression,
  HTTPVersion,
  Protocol,
  StreamType,
} from "./gen/connectrpc/conformance/v1/config_pb.js";
import {
  type Error as ConformanceError,
  ConformancePayloadSchema,
  ConformanceService,
  ErrorSchema,
  IdempotentUnaryRequestSchema,
  UnaryRequestSchema,
  UnimplementedRequestSchema,
} from "./gen/connectrpc/conformance/v1/service_pb.js";

/** One transport per server the runner starts, as a service keeps one per peer. */
const transports = new Map<string, Transport>();

function transportFor(request: ClientCompatRequest): Transport {
  const baseUrl = `http://${request.host}:${request.port}`;
  let transport = transports.get(baseUrl);
  if (transport === undefined) {
    transport = createServiceTransport(baseUrl);
    transports.set(baseUrl, transport);
  }
  return transport;
}

/** Why the platform's client cannot make this call, or undefined if it can. */
function unsupported(request: ClientCompatRequest): string | undefined {
  if (request.protocol !== Protocol.CONNECT) return "only the Connect protocol";
  if (request.httpVersion !== HTTPVersion.HTTP_VERSION_1) return "only HTTP/1.1";
  if (request.codec !== Codec.PROTO) return "only the proto codec";
  if (request.compression !== Compression.IDENTITY && request.compression !== Compression.UNSPECIFIED) {
    return "no compression";
  }
  if (request.streamType !== StreamType.UNARY) return "unary calls only";
  if (request.useGetHttpMethod) return "no Connect GET";
  if (request.serverTlsCert.byteLength > 0) return "no TLS in this harness (see client-config.yaml)";
  return undefined;
}

async function call(request: ClientCompatRequest): Promise<ClientCompatResponse> {
  const refused = unsupported(request);
  if (refused !== undefined) {
    return create(ClientCompatResponseSchema, {
      testName: request.testName,
      result: { case: "error", value: { message: `not supported by the platform's client: ${refused}` } },
    });
  }
  const client = createClient(ConformanceService, transportFor(request));
  const result: ClientResponseResult = create(ClientResponseResultSchema);
  const controller = new AbortController();
  if (request.requestDelayMs > 0) await wait(request.requestDelayMs);
  if (request.cancel?.cancelTiming.case === "afterCloseSendMs") {
    void wait(request.cancel.cancelTiming.value).then(() => controller.abort());
  }
  const headers = new Headers();
  appendHeaders(headers, request.requestHeaders);
  const options: CallOptions = {
    headers,
    signal: controller.signal,
    // A case without a deadline is called with none (0): the transport's 15 s default is the services'
    // policy, not the protocol's.
    timeoutMs: request.timeoutMs ?? 0,
    onHeader: (header) => {
      result.responseHeaders = headersOf(header);
    },
    onTrailer: (trailer) => {
      result.responseTrailers = headersOf(trailer);
    },
  };
  try {
    switch (request.method) {
      case ConformanceService.method.unary.name: {
        const response = await client.unary(single(request, UnaryRequestSchema), options);
        result.payloads.push(response.payload ?? create(ConformancePayloadSchema));
        break;
      }
      case ConformanceService.method.idempotentUnary.name: {
        const response = await client.idempotentUnary(single(request, IdempotentUnaryRequestSchema), options);
        result.payloads.push(response.payload ?? create(ConformancePayloadSchema));
        break;
      }
      case ConformanceService.method.unimplemented.name:
        await client.unimplemented(single(request, UnimplementedRequestSchema), options);
        break;
      default:
        throw new Error(`method ${request.method} is not unary`);
    }
  } catch (e) {
    const error = ConnectError.from(e);
    result.error = errorOf(error);
    // A ConnectError carries headers and trailers together: both are reported from it.
    if (result.responseHeaders.length === 0) result.responseHeaders = headersOf(error.metadata);
    result.responseTrailers = headersOf(error.metadata);
  }
  return create(ClientCompatResponseSchema, {
    testName: request.testName,
    result: { case: "response", value: result },
  });
}

function single<T extends DescMessage>(request: ClientCompatRequest, schema: T): MessageShape<T> {
  const [any, ...rest] = request.requestMessages;
  const message = any && rest.length === 0 ? anyUnpack(any, schema) : undefined;
  if (message === undefined) throw new Error(`expected one ${schema.typeName} in the request`);
  return message;
}

function errorOf(error: ConnectError): ConformanceError {
  const details: Any[] = error.details.map((detail) =>
    "desc" in detail
      ? anyPack(detail.desc, create(detail.desc, detail.value))
      : create(AnySchema, { typeUrl: `type.googleapis.com/${detail.type}`, value: detail.value }),
  );
  return create(ErrorSchema, { code: error.code as number, message: error.rawMessage, details });
}

function wait(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function main(): Promise<void> {
  const calls: Promise<void>[] = [];
  for await (const bytes of readSizeDelimited(process.stdin)) {
    const request = fromBinary(ClientCompatRequestSchema, bytes);
    calls.push(
      call(request)
        .catch((e: unknown) =>
          create(ClientCompatResponseSchema, {
            testName: request.testName,
            result: { case: "error", value: { message: e instanceof Error ? e.message : String(e) } },
          }),
        )
        .then((response) =>
          writeSizeDelimited(process.stdout, toBinary(ClientCompatResponseSchema, response)),
        ),
    );
  }
  await Promise.all(calls);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `conformance client: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
