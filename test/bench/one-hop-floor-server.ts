/**
 * The "one hop" floor of the platform's stack, as two processes per variant:
 *
 * - `rpc h2c|http1|platform-http1`: a bare server (no interceptors, no auth, no tracing) answering
 *   grpc.health.v1 Check with SERVING: connect-node on HTTP/2 without TLS (h2c: gRPC, gRPC-Web and
 *   Connect) or on HTTP/1.1 (Connect and gRPC-Web), or the platform's `createRpcHandler` on HTTP/1.1.
 * - `front <client> <rpc port>`: a fastify server (the gateway's HTTP library) whose `POST
 *   /previewQuotations` makes one Check call through `client` and answers a small JSON document.
 *
 * Each prints `PORT=<port>` once listening and stops on SIGTERM. See FLOOR_VARIANTS in one-hop-floor.ts.
 */
import { Agent, createServer } from "node:http";
import { createServer as createHttp2Server } from "node:http2";
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { type Client, type ConnectRouter, createClient } from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import { createRpcHandler } from "@payouts/platform/internal/rpc/connect-unary-handler";
import { createHttp1UnaryClient } from "@payouts/platform/internal/rpc/http1-unary-client";
import {
  Health,
  HealthCheckRequestSchema,
  HealthCheckResponseSchema,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from "@payouts/proto/grpc/health/v1/health_pb";
import Fastify from "fastify";
import { FLOOR_CLIENTS, type FloorClient } from "./one-hop-floor.js";

type Check = () => Promise<ServingStatus>;

function printPort(address: unknown): void {
  const port = typeof address === "object" && address && "port" in address ? address.port : 0;
  process.stdout.write(`PORT=${port}\n`);
}

function startRpc(protocol: string): void {
  const routes = (router: ConnectRouter) =>
    router.service(Health, {
      check: () => create(HealthCheckResponseSchema, { status: ServingStatus.SERVING }),
    });
  const handler =
    protocol === "platform-http1" ? createRpcHandler({ routes }) : connectNodeAdapter({ routes });
  const server =
    protocol === "h2c" ? createHttp2Server(handler) : createServer({ keepAliveTimeout: 65_000 }, handler);
  server.listen(0, "127.0.0.1", () => printPort(server.address()));
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}

function connectCheck(client: Client<typeof Health>): Check {
  return async () => (await client.check({ service: "" })).status;
}

/** One unary Check through the given client library; each resolves to the serving status. */
function checker(client: FloorClient, baseUrl: string): Check {
  switch (client) {
    case "connect-grpc-h2c":
      // As services/platform/src/rpc/service-transport.ts built it before the platform's own unary client
      // (no interceptors).
      return connectCheck(
        createClient(
          Health,
          createGrpcTransport({ baseUrl, defaultTimeoutMs: 15_000, acceptCompression: [] }),
        ),
      );
    case "connect-http1-binary":
      // What service-transport.ts builds now (without its interceptors and its 128-socket bound).
      return connectCheck(
        createClient(
          Health,
          createConnectTransport({
            baseUrl,
            httpVersion: "1.1",
            useBinaryFormat: true,
            defaultTimeoutMs: 15_000,
            acceptCompression: [],
            nodeOptions: { agent: new Agent({ keepAlive: true, maxSockets: 256 }) },
          }),
        ),
      );
    case "platform-http1":
      // What createServiceTransport builds (without its interceptors and its 128-socket bound).
      return connectCheck(
        createClient(Health, {
          unary: createHttp1UnaryClient({
            baseUrl,
            agent: new Agent({ keepAlive: true, maxSockets: 256 }),
            interceptors: [],
            defaultTimeoutMs: 15_000,
          }),
          stream: () => Promise.reject(new Error("the floor makes unary calls only")),
        }),
      );
    case "grpc-js":
      return grpcJsCheck(baseUrl);
  }
}

function grpcJsCheck(baseUrl: string): Check {
  const path = "/grpc.health.v1.Health/Check";
  const serialize = (v: Uint8Array) => Buffer.from(v);
  const deserialize = (b: Buffer) => new Uint8Array(b);
  const client = new grpc.Client(new URL(baseUrl).host, grpc.credentials.createInsecure());
  const request = toBinary(HealthCheckRequestSchema, create(HealthCheckRequestSchema, { service: "" }));
  return () =>
    new Promise((resolve, reject) => {
      const deadline = Date.now() + 15_000;
      client.makeUnaryRequest(path, serialize, deserialize, request, { deadline }, (error, response) => {
        if (error || !response) reject(error ?? new Error("empty response"));
        else resolve(fromBinary(HealthCheckResponseSchema, response).status);
      });
    });
}

async function startFront(client: FloorClient, rpcPort: string): Promise<void> {
  const check = checker(client, `http://127.0.0.1:${rpcPort}`);
  const app = Fastify({ logger: false, keepAliveTimeout: 65_000 });
  app.post("/previewQuotations", async () => {
    const status = await check();
    return { status: ServingStatus[status] };
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  printPort(app.server.address());
  process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
}

const [role, arg, rpcPort] = process.argv.slice(2);
if (role === "rpc" && (arg === "h2c" || arg === "http1" || arg === "platform-http1")) startRpc(arg);
else if (role === "front" && FLOOR_CLIENTS.includes(arg as FloorClient) && rpcPort)
  void startFront(arg as FloorClient, rpcPort);
else {
  process.stderr.write(
    `usage: one-hop-floor-server.ts rpc h2c|http1|platform-http1 | front ${FLOOR_CLIENTS.join("|")} PORT\n`,
  );
  process.exit(2);
}
