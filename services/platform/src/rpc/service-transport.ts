import http from "node:http";
import https from "node:https";
import type { Interceptor, Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { createTracingInterceptor } from "../telemetry/tracing-interceptor.js";
import type { GrpcTls } from "./grpc-tls.js";
import { createHttp1UnaryClient } from "./http1-unary-client.js";

/**
 * Connections one process keeps to one service at most. A call beyond them waits for a connection (its
 * deadline runs meanwhile) rather than opening ever more sockets on both sides.
 */
export const MAX_CONNECTIONS_PER_SERVICE = 128;
/** The deadline of a call that names none. */
const DEFAULT_TIMEOUT_MS = 15_000;
/** An idle connection is closed by the caller before the server's keep-alive timeout (65 s) would. */
const IDLE_CONNECTION_MS = 30_000;

/** Agents of service transports: their requests are RPCs, traced by the Connect interceptors. */
const serviceAgents = new WeakSet<object>();

/** Whether an outgoing node:http request is a call between services (the HTTP instrumentation skips it). */
export function isServiceTransportRequest(options: { readonly agent?: unknown }): boolean {
  return typeof options.agent === "object" && options.agent !== null && serviceAgents.has(options.agent);
}

/**
 * A transport to another service, e.g. `http://ledger:50053`: the Connect protocol with binary
 * (protobuf) bodies over HTTP/1.1 keep-alive connections, at most MAX_CONNECTIONS_PER_SERVICE of them.
 * It costs about half the CPU per call of gRPC over h2c in connect-node (the one-hop floor in
 * test/bench/README.md); the servers still speak gRPC over HTTP/2 on the same port for other clients
 * (rpc-listener.ts). Deadlines travel as `connect-timeout-ms`, credentials and trace context as headers,
 * exactly as gRPC metadata did. Every call gets a client span and carries the trace context;
 * `interceptors` run inside that.
 */
export function createServiceTransport(
  baseUrl: string,
  interceptors: readonly Interceptor[] = [],
  /** Mutual TLS (an https:// baseUrl): present this certificate, trust only this CA. */
  tls?: GrpcTls,
): Transport {
  const pool = { keepAlive: true, maxSockets: MAX_CONNECTIONS_PER_SERVICE, timeout: IDLE_CONNECTION_MS };
  const agent = tls
    ? new https.Agent({ ...pool, ca: tls.ca, cert: tls.cert, key: tls.key })
    : new http.Agent(pool);
  serviceAgents.add(agent);
  const all = [...clientInterceptors(), ...interceptors];
  // Streams (no service calls one today) take connect-node's Connect transport over the same agent.
  const streams = createConnectTransport({
    baseUrl,
    httpVersion: "1.1",
    useBinaryFormat: true,
    nodeOptions: { agent },
    interceptors: all,
    defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    // Service-to-service traffic stays inside the cluster: gzip would cost CPU on both ends to save
    // bandwidth nobody is short of (the unary client never compresses either).
    acceptCompression: [],
  });
  return {
    unary: createHttp1UnaryClient({
      baseUrl,
      agent,
      interceptors: all,
      defaultTimeoutMs: DEFAULT_TIMEOUT_MS,
    }),
    stream: streams.stream,
  };
}

/** What every call to another service goes through, in every mode. */
export function clientInterceptors(): Interceptor[] {
  return [createTracingInterceptor("client")];
}
