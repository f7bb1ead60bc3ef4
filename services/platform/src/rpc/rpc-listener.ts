/**
 * One port for every RPC protocol connect-node serves: HTTP/2 (gRPC, gRPC-Web, Connect; what operators'
 * gRPC tools, kubelet probes and `@grpc/grpc-js` clients speak) and HTTP/1.1 (Connect, gRPC-Web; what
 * the services call each other with, see service-transport.ts).
 *
 * - Plaintext: the first bytes of a connection decide. The HTTP/2 connection preface (RFC 9113 §3.4,
 *   "PRI * HTTP/2.0…", which prior-knowledge h2c clients send first) goes to an HTTP/2 server; anything
 *   else to an HTTP/1.1 server (node:http2's `allowHTTP1` does this only over TLS in Node 20).
 * - TLS: ALPN decides (`http2.createSecureServer({ allowHTTP1: true })`), with the client certificate
 *   required as before.
 *
 * HTTP/2 is bounded: at most MAX_CONCURRENT_STREAMS calls at once per connection (advertised in the
 * SETTINGS frame), a stream without activity for STREAM_IDLE_MS is cancelled, and a session without
 * activity for SESSION_IDLE_MS is closed (GOAWAY, then destroyed after CLOSE_GRACE_MS).
 *
 * Closing stops accepting, lets calls in flight finish (HTTP/2 sessions get GOAWAY, HTTP/1.1 connections
 * are closed when idle or after their current answer) and destroys what is left after 5 s.
 */
import http from "node:http";
import http2 from "node:http2";
import net, { type AddressInfo, type Socket } from "node:net";
import type { RpcRequestHandler as Handler } from "./connect-unary-handler.js";
import type { GrpcTls } from "./grpc-tls.js";

export interface RpcListener {
  /** The address the listener is bound to, as the socket reports it. */
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/** What a plaintext HTTP/2 client sends first; an HTTP/1.1 request line never starts with it. */
const H2_PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "latin1");
/** A connection that has not said which protocol it speaks within this time is dropped. */
const SNIFF_TIMEOUT_MS = 10_000;
/** Longer than service-transport's idle socket timeout, so the client always closes an idle connection. */
const HTTP1_KEEP_ALIVE_MS = 65_000;
const CLOSE_GRACE_MS = 5_000;
/** Calls one HTTP/2 connection may have open at once; a service's callers pool HTTP/1.1 connections. */
export const MAX_CONCURRENT_STREAMS = 128;
/** A call that neither sends nor receives for this long is cancelled (every deadline is far shorter). */
export const STREAM_IDLE_MS = 60_000;
/** An HTTP/2 connection with no call for this long is closed (like HTTP1_KEEP_ALIVE_MS). */
export const SESSION_IDLE_MS = 65_000;

/** The HTTP/2 bounds of a listener; the defaults above unless a test asks for others. */
export interface Http2Limits {
  readonly maxConcurrentStreams?: number;
  readonly streamIdleMs?: number;
  readonly sessionIdleMs?: number;
}

/**
 * HTTP/1.1 connections accepted by an RPC listener: their requests are RPCs, traced by the Connect
 * interceptors (telemetry/tracing-interceptor.ts), so the HTTP instrumentation leaves them alone.
 */
const rpcSockets = new WeakSet<object>();

export function isRpcListenerRequest(request: http.IncomingMessage): boolean {
  return rpcSockets.has(request.socket);
}

/** Which server a plaintext connection belongs to, from its first bytes; undefined: not known yet. */
export function protocolOf(firstBytes: Buffer): "h2" | "http1" | undefined {
  const n = Math.min(firstBytes.length, H2_PREFACE.length);
  if (!firstBytes.subarray(0, n).equals(H2_PREFACE.subarray(0, n))) return "http1";
  return firstBytes.length >= H2_PREFACE.length ? "h2" : undefined;
}

export async function listenRpc(
  handler: Handler,
  port: number,
  host: string,
  tls?: GrpcTls,
  limits: Http2Limits = {},
): Promise<RpcListener> {
  const settings = { maxConcurrentStreams: limits.maxConcurrentStreams ?? MAX_CONCURRENT_STREAMS };
  const streamIdleMs = limits.streamIdleMs ?? STREAM_IDLE_MS;
  const sessionIdleMs = limits.sessionIdleMs ?? SESSION_IDLE_MS;
  const sockets = new Set<Socket>();
  const sessions = new Set<http2.ServerHttp2Session>();
  let closing = false;
  // An HTTP/1.1 answer given while closing ends its connection, so the peer does not send another call.
  const h1Handler: Handler = (request, response) => {
    if (closing && !response.headersSent) response.setHeader("connection", "close");
    handler(request, response);
  };
  const h2 = tls
    ? http2.createSecureServer(
        {
          ca: tls.ca,
          cert: tls.cert,
          key: tls.key,
          requestCert: true,
          rejectUnauthorized: true,
          allowHTTP1: true,
          settings,
        },
        h1Handler,
      )
    : http2.createServer({ settings }, handler);
  h2.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
    s.setTimeout(sessionIdleMs, () => {
      s.close();
      setTimeout(() => s.destroy(), CLOSE_GRACE_MS).unref();
    });
  });
  h2.on("stream", (stream) => {
    stream.setTimeout(streamIdleMs, () => stream.close(http2.constants.NGHTTP2_CANCEL));
  });
  const h1 = tls ? undefined : http.createServer({ keepAliveTimeout: HTTP1_KEEP_ALIVE_MS }, h1Handler);
  // noDelay as node:http and node:http2 servers have it: an answer is not held back waiting for an ACK.
  const server: net.Server = h1 ? net.createServer({ noDelay: true }, (socket) => route(socket, h2, h1)) : h2;
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  // node:http tracks its connections (idle ones for closing, header and request timeouts) from its
  // 'listening' event; this server never listens itself, the sniffing one does.
  h1?.emit("listening");
  const address = server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        for (const s of sessions) s.close();
        // Ends idle keep-alive connections and stops the request timeout checks.
        h1?.close(() => {});
        setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, CLOSE_GRACE_MS).unref();
      }),
  };
}

/** Hands a plaintext connection to the HTTP/2 or the HTTP/1.1 server once its first bytes tell which. */
function route(socket: Socket, h2: http2.Http2Server | http2.Http2SecureServer, h1: http.Server): void {
  let seen: Buffer = Buffer.alloc(0);
  const drop = () => socket.destroy();
  const onData = (chunk: Buffer) => {
    seen = seen.length === 0 ? chunk : Buffer.concat([seen, chunk]);
    const protocol = protocolOf(seen);
    if (protocol === undefined) return;
    socket.off("data", onData);
    socket.off("error", drop);
    socket.off("timeout", drop);
    socket.setTimeout(0);
    socket.pause();
    socket.unshift(seen);
    if (protocol === "h2") {
      // The HTTP/2 session takes over the socket and reads what is buffered first.
      h2.emit("connection", socket);
      return;
    }
    rpcSockets.add(socket);
    h1.emit("connection", socket);
    // node:http's parser reads the socket natively from now on; the bytes already read (and put back)
    // reach it through the stream, flushed on the next tick — before any further read of the socket.
    socket.resume();
  };
  socket.on("data", onData);
  socket.on("error", drop);
  socket.setTimeout(SNIFF_TIMEOUT_MS, drop);
}
