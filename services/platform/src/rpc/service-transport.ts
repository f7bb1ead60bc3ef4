import type { Interceptor, Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createTracingInterceptor } from "../telemetry/tracing-interceptor.js";
import type { GrpcTls } from "./grpc-tls.js";

/**
 * A gRPC (HTTP/2) transport to another service, e.g. `http://ledger:50053`. Every call gets a client
 * span and carries the trace context; `interceptors` run inside that.
 */
export function createServiceTransport(
  baseUrl: string,
  interceptors: readonly Interceptor[] = [],
  /** Mutual TLS (an https:// baseUrl): present this certificate, trust only this CA. */
  tls?: GrpcTls,
): Transport {
  return createGrpcTransport({
    baseUrl,
    ...(tls ? { nodeOptions: { ca: tls.ca, cert: tls.cert, key: tls.key } } : {}),
    interceptors: [...clientInterceptors(), ...interceptors],
    defaultTimeoutMs: 15_000,
    pingIntervalMs: 30_000,
    // Service-to-service traffic stays inside the cluster: gzip would cost CPU on both ends (responses of
    // 1 KiB and more, e.g. listTransactions, were compressed) to save bandwidth nobody is short of.
    acceptCompression: [],
  });
}

/** What every call to another service goes through, in every mode. */
export function clientInterceptors(): Interceptor[] {
  return [createTracingInterceptor("client")];
}
