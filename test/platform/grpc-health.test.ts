import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";
import { createLogger } from "@payouts/platform/logging/logger";
import { startGrpcServer } from "@payouts/platform/rpc/grpc-server";
import {
  HealthCheckRequestSchema,
  HealthCheckResponseSchema,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from "@payouts/proto/grpc/health/v1/health_pb";
import { afterAll, describe, expect, it } from "vitest";

function grpcJsHealthCheck(
  port: number,
  service: string,
): Promise<{ status?: ServingStatus; code?: number }> {
  const Client = grpc.makeGenericClientConstructor(
    {
      check: {
        path: "/grpc.health.v1.Health/Check",
        requestStream: false,
        responseStream: false,
        requestSerialize: (v: Uint8Array) => Buffer.from(v),
        requestDeserialize: (b: Buffer) => new Uint8Array(b),
        responseSerialize: (v: Uint8Array) => Buffer.from(v),
        responseDeserialize: (b: Buffer) => new Uint8Array(b),
      },
    },
    "Health",
  );
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const req = toBinary(HealthCheckRequestSchema, create(HealthCheckRequestSchema, { service }));
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      (v: Uint8Array) => Buffer.from(v),
      (b: Buffer) => new Uint8Array(b),
      req,
      (err: grpc.ServiceError | null, res?: Uint8Array) => {
        client.close();
        if (err) resolve({ code: err.code });
        else resolve({ status: fromBinary(HealthCheckResponseSchema, res!).status });
      },
    );
  });
}

describe("gRPC server bootstrap", async () => {
  const server = await startGrpcServer({
    name: "test",
    port: 0,
    host: "127.0.0.1",
    serviceNames: ["payouts.ledger.v1.LedgerService"],
    routes: () => {},
    // No caller is accepted at all: health must still answer (probes carry no credential).
    auth: { verifier: undefined },
    logger: createLogger({ service: "test", level: "silent" }),
  });
  afterAll(() => server.close());

  it("answers grpc.health.v1 Check to a @grpc/grpc-js client with SERVING", async () => {
    expect(await grpcJsHealthCheck(server.port, "")).toEqual({ status: ServingStatus.SERVING });
    expect(await grpcJsHealthCheck(server.port, "payouts.ledger.v1.LedgerService")).toEqual({
      status: ServingStatus.SERVING,
    });
  });

  it("answers NOT_FOUND for an unknown service and NOT_SERVING while draining", async () => {
    expect(await grpcJsHealthCheck(server.port, "nope.v1.Nope")).toEqual({ code: grpc.status.NOT_FOUND });
    server.health.setServing(false);
    expect(await grpcJsHealthCheck(server.port, "")).toEqual({ status: ServingStatus.NOT_SERVING });
    server.health.setServing(true);
  });
});
