import type { ConnectRouter, Interceptor } from "@connectrpc/connect";
import { DEFAULT_HOST } from "../config/listen-host.js";
import type { Logger } from "../logging/logger.js";
import { createRpcMetricsInterceptor } from "../telemetry/rpc-metrics-interceptor.js";
import { createTracingInterceptor } from "../telemetry/tracing-interceptor.js";
import { createRpcHandler } from "./connect-unary-handler.js";
import type { GrpcTls } from "./grpc-tls.js";
import { HealthState } from "./health-service.js";
import { listenRpc } from "./rpc-listener.js";
import { authenticateCall, createServiceAuthInterceptor, type ServiceAuthOptions } from "./service-auth.js";

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
 * One port speaking gRPC, gRPC-Web and Connect over HTTP/2 and Connect and gRPC-Web over HTTP/1.1
 * (rpc-listener.ts), with grpc.health.v1 attached. Unary Connect calls over HTTP/1.1 (the services' own
 * calls) are served by connect-unary-handler.ts, everything else by connect-node. Closing first reports NOT_SERVING, then stops
 * accepting and waits for in-flight calls.
 */
export async function startGrpcServer(options: GrpcServerOptions): Promise<GrpcServerHandle> {
  const health = new HealthState(options.serviceNames);
  const handler = createRpcHandler({
    interceptors: [...serverInterceptors(options.auth), ...(options.interceptors ?? [])],
    // The caller check, from the headers, before the body is read; the interceptor checks again (a
    // map lookup) and hands the caller to the handler.
    authenticate: async (procedure, authorization) => {
      const verdict = await authenticateCall(options.auth, procedure, authorization);
      return "error" in verdict ? verdict.error : undefined;
    },
    routes: (router) => {
      health.register(router);
      options.routes(router);
    },
  });
  const host = options.host ?? DEFAULT_HOST;
  const main = await listenRpc(handler, options.port, host, options.tls);
  // The probe port serves health and nothing else: no interceptor is needed, nothing else is routed.
  const probe =
    options.tls && options.healthPort !== undefined && options.healthPort > 0
      ? await listenRpc(
          createRpcHandler({ routes: (router) => health.register(router) }),
          options.healthPort,
          host,
        )
      : undefined;
  options.logger.info(
    {
      host: main.host,
      port: main.port,
      tls: options.tls !== undefined,
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

/**
 * What every service answers with, in every mode: a server span per call, the RPC histogram, then the
 * caller check (inside both). Over the network a call without a valid credential is refused before
 * these run, from its headers (createRpcHandler's `authenticate`), and is logged but not traced.
 */
export function serverInterceptors(auth: ServiceAuthOptions): Interceptor[] {
  return [
    createTracingInterceptor("server"),
    createRpcMetricsInterceptor(),
    createServiceAuthInterceptor(auth),
  ];
}
