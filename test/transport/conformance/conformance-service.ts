/**
 * The conformance suite's ConformanceService, answered as its server guide asks: every call echoes
 * the request headers, the timeout and the request it received (in the payload, or in the error's
 * details), and answers with the headers, trailers, data or error its response definition names.
 * Only the unary methods are implemented; the platform's transport is tested for unary calls only.
 */
import { create, createRegistry } from "@bufbuild/protobuf";
import { type Any, anyPack } from "@bufbuild/protobuf/wkt";
import { type Code, ConnectError, type ConnectRouter, type HandlerContext } from "@connectrpc/connect";
import {
  type Error as ConformanceError,
  ConformancePayload_RequestInfoSchema,
  ConformancePayloadSchema,
  ConformanceService,
  file_connectrpc_conformance_v1_service,
  type Header,
  HeaderSchema,
  IdempotentUnaryRequestSchema,
  UnaryRequestSchema,
  type UnaryResponseDefinition,
} from "./gen/connectrpc/conformance/v1/service_pb.js";

/** The messages a payload or an error detail carries as google.protobuf.Any. */
export const conformanceRegistry = createRegistry(file_connectrpc_conformance_v1_service);

export function conformanceRoutes(router: ConnectRouter): void {
  router.service(ConformanceService, {
    unary: (request, context) =>
      answer(request.responseDefinition, anyPack(UnaryRequestSchema, request), context),
    idempotentUnary: (request, context) =>
      answer(request.responseDefinition, anyPack(IdempotentUnaryRequestSchema, request), context),
  });
}

async function answer(
  definition: UnaryResponseDefinition | undefined,
  request: Any,
  context: HandlerContext,
) {
  appendHeaders(context.responseHeader, definition?.responseHeaders ?? []);
  appendHeaders(context.responseTrailer, definition?.responseTrailers ?? []);
  const timeoutMs = context.timeoutMs();
  const requestInfo = create(ConformancePayload_RequestInfoSchema, {
    requestHeaders: headersOf(context.requestHeader),
    requests: [request],
    ...(timeoutMs === undefined ? {} : { timeoutMs: BigInt(timeoutMs) }),
  });
  if (definition?.response.case === "error") {
    throw errorOf(definition.response.value, anyPack(ConformancePayload_RequestInfoSchema, requestInfo));
  }
  if (definition?.responseDelayMs) await new Promise((r) => setTimeout(r, definition.responseDelayMs));
  return {
    payload: create(ConformancePayloadSchema, {
      requestInfo,
      ...(definition?.response.case === "responseData" ? { data: definition.response.value } : {}),
    }),
  };
}

function errorOf(error: ConformanceError, requestInfo: Any): ConnectError {
  const connectError = new ConnectError(error.message ?? "", error.code as number as Code);
  // Details travel as the Any messages they are, whatever their type.
  for (const any of [...error.details, requestInfo]) {
    connectError.details.push({
      type: any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1),
      value: any.value,
    });
  }
  return connectError;
}

export function appendHeaders(target: Headers, headers: readonly Header[]): void {
  for (const header of headers) for (const value of header.value) target.append(header.name, value);
}

export function headersOf(headers: Headers): Header[] {
  const result: Header[] = [];
  headers.forEach((value, name) => {
    result.push(create(HeaderSchema, { name, value: [value] }));
  });
  return result;
}
