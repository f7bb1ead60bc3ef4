import type { Interceptor, Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";

/** A gRPC (HTTP/2) transport to another service, e.g. `http://ledger:50053`. */
export function createServiceTransport(
  baseUrl: string,
  interceptors: readonly Interceptor[] = [],
): Transport {
  return createGrpcTransport({
    baseUrl,
    interceptors: [...interceptors],
    defaultTimeoutMs: 15_000,
    pingIntervalMs: 30_000,
  });
}
