/**
 * HTTP POSTs to partner receivers over kept-alive connections, with the dispatcher's egress rules:
 * - one connection pool per receiver origin (undici `Agent`), at most `connectionsPerOrigin` connections
 *   each, one request at a time per connection (no pipelining). An idle connection is closed after a few
 *   seconds, and every connection after `requestsPerConnection` requests, so a receiver's DNS change is
 *   seen soon; a connection the receiver closed is replaced, never retried on (a POST is not re-sent);
 * - a NEW connection resolves the host name here and checks every address with `isForbiddenAddress`
 *   unless private receivers are allowed, and the socket connects to exactly the addresses that were
 *   checked (the resolver result is handed to the connection), so DNS rebinding between check and
 *   connect is impossible; a reused connection goes to an address checked when it was opened. Resolution
 *   and TLS set-up are paid per connection, not per attempt;
 * - IP-literal hosts (never resolved) and the port are checked before every request;
 * - no redirects are followed (a 3xx is just a status);
 * - one whole-request timeout (and an optional abort signal); the answer is read up to a cap and the
 *   connection dropped if there is more.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
import { Agent, type Dispatcher } from "undici";
import { isForbiddenAddress, portProblem } from "../domain/address-policy.js";
import { MAX_RESPONSE_BODY_BYTES } from "../domain/delivery-outcome.js";

export interface ReceiverRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Uint8Array;
  /** Aborts the request (the attempt's lease is running out); answered as an error. */
  readonly signal?: AbortSignal;
}

export type ReceiverAnswer =
  | {
      readonly status: number;
      readonly retryAfter: string | undefined;
      readonly body: Buffer;
      readonly latencyMs: number;
    }
  | {
      readonly error: string;
      readonly latencyMs: number;
      /** The failure was on this side (the attempt was abandoned): it says nothing about the receiver. */
      readonly local?: true;
    };

export interface ReceiverClientOptions {
  readonly allowPrivate: boolean;
  /** Ports a receiver may be reached on (a config saved before the setting changed is refused here). */
  readonly allowedPorts?: readonly number[] | undefined;
  readonly timeoutMs: number;
  /** Most open connections to one receiver origin (the dispatcher passes its concurrency; default 16). */
  readonly connectionsPerOrigin?: number;
  /** Resolver used instead of the system's (tests). Must return every address of the host. */
  readonly resolve?: (hostname: string) => Promise<readonly LookupAddress[]>;
}

/** Sends one request; `close()` closes every pooled connection (the dispatcher stops; idempotent). */
export type ReceiverClient = ((request: ReceiverRequest) => Promise<ReceiverAnswer>) & {
  close(): Promise<void>;
};

/** An idle kept-alive connection is closed after this long (below common servers' idle timeouts). */
const IDLE_CONNECTION_MS = 4_000;
/** A connection is replaced after this many requests: the host is resolved and checked again. */
const REQUESTS_PER_CONNECTION = 1_000;

class RefusedAddressError extends Error {}

export function createReceiverClient(options: ReceiverClientOptions): ReceiverClient {
  const lookup = vettedLookup(options.resolve ?? systemResolve, options.allowPrivate);
  let agent: Agent | undefined;
  const pools = () =>
    (agent ??= new Agent({
      connections: options.connectionsPerOrigin ?? 16,
      pipelining: 1,
      keepAliveTimeout: IDLE_CONNECTION_MS,
      keepAliveMaxTimeout: IDLE_CONNECTION_MS,
      maxRequestsPerClient: REQUESTS_PER_CONNECTION,
      // The whole request is bounded by one timer below; undici's own per-phase timers stay out of the way.
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: { lookup, timeout: options.timeoutMs },
    }));
  const client = (request: ReceiverRequest) => post(pools(), request, options);
  return Object.assign(client, {
    // Closes the pools (idempotent); a request after that opens new ones.
    close: async () => {
      const closing = agent;
      agent = undefined;
      await closing?.close();
    },
  });
}

async function post(
  agent: Dispatcher,
  request: ReceiverRequest,
  options: ReceiverClientOptions,
): Promise<ReceiverAnswer> {
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  const url = new URL(request.url);
  const refusedPort = portProblem(url, options.allowedPorts);
  if (refusedPort !== undefined) return { error: refusedPort, latencyMs: elapsed() };
  const literal = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (isIP(literal) !== 0 && !options.allowPrivate && isForbiddenAddress(literal)) {
    return { error: refusedMessage(literal), latencyMs: elapsed() };
  }
  if (request.signal?.aborted) {
    return { error: abandonedMessage(request.signal), latencyMs: elapsed(), local: true };
  }
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new TimeoutError()), options.timeoutMs);
  const signal = request.signal;
  const onAbort = () => stop.abort(new AbandonedError(abandonedMessage(signal)));
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const response = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { ...request.headers, "content-length": String(request.body.byteLength) },
      body: request.body,
      signal: stop.signal,
    });
    const body = await readCapped(response.body);
    return {
      status: response.statusCode,
      retryAfter: headerText(response.headers, "retry-after"),
      body,
      latencyMs: elapsed(),
    };
  } catch (error) {
    const reason = stop.signal.aborted ? stop.signal.reason : error;
    const answer = { error: failureMessage(reason, options.timeoutMs), latencyMs: elapsed() };
    return reason instanceof AbandonedError ? { ...answer, local: true } : answer;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}

/**
 * Reads at most MAX_RESPONSE_BODY_BYTES + 1 bytes (so truncation is detectable); a longer answer's
 * connection is dropped rather than drained.
 */
async function readCapped(body: Dispatcher.ResponseData["body"]): Promise<Buffer> {
  const cap = MAX_RESPONSE_BODY_BYTES + 1;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= cap) {
      body.destroy();
      return Buffer.concat(chunks).subarray(0, cap);
    }
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

function headerText(headers: Dispatcher.ResponseData["headers"], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function vettedLookup(
  resolve: (hostname: string) => Promise<readonly LookupAddress[]>,
  allowPrivate: boolean,
): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const refused = allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
        if (refused !== undefined) {
          callback(new RefusedAddressError(refusedMessage(refused.address, hostname)), "", 0);
          return;
        }
        const first = addresses[0];
        if (first === undefined) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
        } else if (lookupOptions.all) {
          (callback as unknown as (e: null, a: readonly LookupAddress[]) => void)(null, addresses);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

function systemResolve(hostname: string): Promise<readonly LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });
}

class TimeoutError extends Error {}

class AbandonedError extends Error {}

function abandonedMessage(signal: AbortSignal | undefined): string {
  const reason = signal?.reason as { message?: unknown } | undefined;
  const why = typeof reason?.message === "string" ? reason.message : "the attempt's lease ran out";
  return `attempt abandoned: ${why}`;
}

function refusedMessage(address: string, hostname?: string): string {
  const subject = hostname === undefined ? address : `${hostname} resolves to ${address}, which`;
  return `refused: ${subject} is a loopback, private, link-local or otherwise non-public address`;
}

function failureMessage(error: unknown, timeoutMs: number): string {
  if (error instanceof TimeoutError) return `timed out after ${timeoutMs} ms`;
  if (error instanceof RefusedAddressError || error instanceof AbandonedError) return error.message;
  const { code, message } = error as NodeJS.ErrnoException;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `host not found (${code})`;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET") return "connection reset by the receiver";
  if (code === "UND_ERR_SOCKET") return "connection closed by the receiver before it answered";
  if (code === "UND_ERR_CONNECT_TIMEOUT") return "connecting timed out";
  return code === undefined ? message : `${code}: ${message}`;
}
