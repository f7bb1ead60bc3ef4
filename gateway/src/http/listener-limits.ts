import type { Server } from "node:http";
import type { Socket } from "node:net";
import { throttleAddressKey } from "../auth/throttle-address.js";

/** How long a client may take over a request and hold a connection, and how many it may hold. */
export interface ListenerLimits {
  /** From a request's first byte until all its headers have arrived. */
  readonly headersTimeoutMs: number;
  /** From a request's first byte until all of it, body included, has arrived (≥ headersTimeoutMs). */
  readonly requestTimeoutMs: number;
  /** Nothing sent or received on the connection for this long: it is closed. */
  readonly idleTimeoutMs: number;
  /** Between requests on a keep-alive connection. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections per client address (IPv6: per /64); 0 = no limit. */
  readonly maxConnectionsPerAddress: number;
}

/**
 * The Fastify options that bound a slow client. Node's HTTP server checks the header and request deadlines
 * for every open connection every `connectionsCheckingInterval`, so that interval is kept well below the
 * deadlines. The request deadline covers the body too: a body read stops when the whole request is late,
 * whether it trickles in or stalls (a stall also meets the idle timeout). A late request is answered 408
 * `REQUEST_TIMEOUT` by the listener's client-error handler (install-edge.ts) if no answer was started yet,
 * and its connection is closed.
 */
export function listenerTimeoutOptions(limits: ListenerLimits) {
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
  };
}

/**
 * Closes, as soon as it is accepted, any connection beyond `max` open ones from the same client address, so
 * that one client cannot hold every socket of the process. Addresses are keyed like the login throttle's
 * (IPv6 by /64). This sees the TCP peer: behind a proxy, that is the proxy, so there the configuration
 * switches it off unless set (gateway-config.ts) and the per-client cap belongs to the proxy.
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max < 1) return;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const key = throttleAddressKey(socket.remoteAddress ?? "");
    const count = open.get(key) ?? 0;
    if (count >= max) {
      socket.destroy();
      return;
    }
    open.set(key, count + 1);
    socket.once("close", () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}
