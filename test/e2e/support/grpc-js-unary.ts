import type { DescMethodUnary } from "@bufbuild/protobuf";
import {
  create,
  type DescMessage,
  fromBinary,
  type MessageInitShape,
  type MessageShape,
  toBinary,
} from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import * as grpc from "@grpc/grpc-js";

/** A failed call as @grpc/grpc-js reports it: the gRPC status code and the trailers. */
export class GrpcJsError extends Error {
  constructor(
    readonly code: grpc.status,
    readonly details: string,
    readonly metadata: grpc.Metadata,
  ) {
    super(`gRPC ${grpc.status[code]}: ${details}`);
  }
}

/**
 * One unary call with @grpc/grpc-js — a client that shares no code with the services' Connect stack —
 * with messages encoded and decoded by protobuf-es. `address` is `host:port` (plaintext HTTP/2).
 */
export function grpcJsUnary<I extends DescMessage, O extends DescMessage>(
  address: string,
  method: DescMethodUnary<I, O>,
  request: MessageInitShape<I>,
  deadlineMs = 5_000,
  /** gRPC metadata, e.g. `{ authorization: "Bearer <service token>" }`. */
  headers: Readonly<Record<string, string>> = {},
): Promise<MessageShape<O>> {
  const call = unaryCall(address, method, request, deadlineMs, headers);
  // Tests start several calls in one array and sign a token (asynchronously) between them: a refusal that
  // arrives before the array is awaited is not unhandled. Whoever awaits `call` still gets the error.
  call.catch(() => {});
  return call;
}

async function unaryCall<I extends DescMessage, O extends DescMessage>(
  address: string,
  method: DescMethodUnary<I, O>,
  request: MessageInitShape<I>,
  deadlineMs: number,
  headers: Readonly<Record<string, string>>,
): Promise<MessageShape<O>> {
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const path = `/${method.parent.typeName}/${method.name}`;
  try {
    const bytes = await new Promise<Uint8Array>((resolve, reject) => {
      client.makeUnaryRequest(
        path,
        (message: Uint8Array) => Buffer.from(message),
        (buffer: Buffer) => new Uint8Array(buffer),
        toBinary(method.input, create(method.input, request)),
        metadataOf(headers),
        { deadline: Date.now() + deadlineMs },
        (error: grpc.ServiceError | null, response?: Uint8Array) => {
          if (error) reject(new GrpcJsError(error.code, error.details, error.metadata));
          else resolve(response ?? new Uint8Array());
        },
      );
    });
    return fromBinary(method.output, bytes);
  } finally {
    client.close();
  }
}

function metadataOf(headers: Readonly<Record<string, string>>): grpc.Metadata {
  const metadata = new grpc.Metadata();
  for (const [name, value] of Object.entries(headers)) metadata.set(name, value);
  return metadata;
}

/** One `google.protobuf.Any` of a `google.rpc.Status`: its type URL and encoded message. */
export interface StatusDetail {
  readonly typeUrl: string;
  readonly value: Uint8Array;
}

/**
 * The details of the `google.rpc.Status` in the `grpc-status-details-bin` trailer, read field by field
 * (Status: 3 = repeated Any; Any: 1 = type_url, 2 = value) so no Connect code is involved.
 */
export function statusDetailsOf(metadata: grpc.Metadata): StatusDetail[] {
  const [encoded] = metadata.get("grpc-status-details-bin");
  if (!(encoded instanceof Buffer)) return [];
  const details: StatusDetail[] = [];
  const status = new BinaryReader(encoded);
  while (status.pos < status.len) {
    const [field, wireType] = status.tag();
    if (field !== 3) {
      status.skip(wireType);
      continue;
    }
    const any = new BinaryReader(status.bytes());
    let typeUrl = "";
    let value: Uint8Array = new Uint8Array();
    while (any.pos < any.len) {
      const [anyField, anyWireType] = any.tag();
      if (anyField === 1) typeUrl = any.string();
      else if (anyField === 2) value = any.bytes();
      else any.skip(anyWireType);
    }
    details.push({ typeUrl, value });
  }
  return details;
}
