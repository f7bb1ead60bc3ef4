import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { DEFAULT_HOST } from "../config/listen-host.js";
import type { Logger } from "../logging/logger.js";
import { createRpcMetricsInterceptor } from "../telemetry/rpc-metrics-interceptor.js";
import { createTracingInterceptor } from "../telemetry/tracing-interceptor.js";
import type { GrpcTls } from "./grpc-tls.js";
import { HealthState } from "./health-service.js";
import { createServiceAuthInterceptor, type ServiceAuthOptions } from "./service-auth.js";

export interface GrpcServerOptions {
  readonly name: string;
  readonly port: number;
  /** Defaults to DEFAULT_HOST (loopback). */
  readonly host?: string;
  /** Who may call what: every RPC but grpc.health.v1 needs a caller credential the allowlist names. */
  readonly auth: ServiceAuthOptions;
  /** Mutual TLS: the listener requires a client certificate signed by `tls.ca`. */
  readonly tls?: GrpcTls | undefined;
  /** With TLS, a plaintext port answering grpc.health.v1 only (kubelet probes cannot speak TLS). */
  readonly healthPort?: number | undefined;
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
  /** The plaintext health-only port, when one was asked for. */
  readonly healthPort: number | undefined;
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
  const tls = options.tls;
  const server = tls
    ? http2.createSecureServer(
        { ca: tls.ca, cert: tls.cert, key: tls.key, requestCert: true, rejectUnauthorized: true },
        handler,
      )
    : http2.createServer(handler);
  const main = await listen(server, options.port, options.host ?? DEFAULT_HOST);
  // The probe port serves health and nothing else: no interceptor is needed, nothing else is routed.
  const probe =
    tls && options.healthPort !== undefined && options.healthPort > 0
      ? await listen(
          http2.createServer(connectNodeAdapter({ routes: (router) => health.register(router) })),
          options.healthPort,
          options.host ?? DEFAULT_HOST,
        )
      : undefined;
  options.logger.info(
    {
      host: main.host,
      port: main.port,
      tls: tls !== undefined,
      health_port: probe?.port,
      services: options.serviceNames,
    },
    `${options.name} gRPC server listening`,
  );
  return {
    host: main.host,
    port: main.port,
    healthPort: probe?.port,
    health,
    close: async () => {
      health.setServing(false);
      await Promise.all([main.close(), probe?.close()]);
    },
  };
}

interface Listening {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** Listens; closing refuses new sessions, asks open ones to finish and destroys them after 5 s. */
async function listen(
  server: http2.Http2Server | http2.Http2SecureServer,
  port: number,
  host: string,
): Promise<Listening> {
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sessions) s.close();
        setTimeout(() => {
          for (const s of sessions) s.destroy();
        }, 5_000).unref();
      }),
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
