import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { DEFAULT_HOST } from "../config/listen-host.js";
import type { Logger } from "../logging/logger.js";
import { createRpcMetricsInterceptor } from "../telemetry/rpc-metrics-interceptor.js";
import { createTracingInterceptor } from "../telemetry/tracing-interceptor.js";
import { HealthState } from "./health-service.js";
import { createServiceAuthInterceptor, type ServiceAuthOptions } from "./service-auth.js";

export interface GrpcServerOptions {
  readonly name: string;
  readonly port: number;
  /** Defaults to DEFAULT_HOST (loopback). */
  readonly host?: string;
  /** Who may call what: every RPC but grpc.health.v1 needs a caller credential the allowlist names. */
  readonly auth: ServiceAuthOptions;
  /** Fully-qualified names reported by the health service, e.g. "payouts.ledger.v1.LedgerService". */
  readonly serviceNames: readonly string[];
  readonly routes: (router: ConnectRouter) => void;
  /** Run after the built-in tracing and metrics interceptors (outermost first). */
  readonly interceptors?: readonly Interceptor[];
  readonly logger: Logger;
}

export interface GrpcServerHandle {
  /** The address the listener is bound to, as the socket reports it. */
  readonly host: string;
  readonly port: number;
  readonly health: HealthState;
  close(): Promise<void>;
}

/**
 * One HTTP/2 (h2c) port speaking gRPC, gRPC-Web and Connect, with grpc.health.v1 attached. Closing
 * first reports NOT_SERVING, then stops accepting and waits for in-flight calls.
 */
export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServerHandle> {
  const health = new HealthState(options.serviceNames);
  const handler = connectNodeAdapter({
    interceptors: [...serverInterceptors(options.auth), ...(options.interceptors ?? [])],
    routes: (router) => {
      health.register(router);
      options.routes(router);
    },
  });
  const server = http2.createServer(handler);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? DEFAULT_HOST, () => resolve());
  });
  const { address: host, port } = server.address() as AddressInfo;
  options.logger.info(
    { host, port, services: options.serviceNames },
    `${options.name} gRPC server listening`,
  );
  return {
    host,
    port,
    health,
    close: async () => {
      health.setServing(false);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sessions) s.close();
        setTimeout(() => {
          for (const s of sessions) s.destroy();
        }, 5_000).unref();
      });
    },
  };
}

/**
 * What every service answers with, in every mode: a server span per call, the RPC histogram, then the
 * caller check (inside both, so refused calls are traced and counted).
 */
export function serverInterceptors(auth: ServiceAuthOptions): Interceptor[] {
  return [
    createTracingInterceptor("server"),
    createRpcMetricsInterceptor(),
    createServiceAuthInterceptor(auth),
  ];
}
