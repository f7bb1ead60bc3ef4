/**
 * One HTTP POST to a partner receiver, with the dispatcher's egress rules:
 * - the host name is resolved here and every address is checked by `isForbiddenAddress` unless private
 *   receivers are allowed; the socket connects to exactly the addresses that were checked (the resolver
 *   result is handed to the connection), so DNS rebinding between check and connect is impossible;
 * - IP-literal hosts (never resolved) are checked directly;
 * - no redirects are followed (Node's http client never follows them; a 3xx is just a status);
 * - one whole-request timeout (and an optional abort signal); the answer is read up to a cap and the rest
 *   discarded.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { performance } from "node:perf_hooks";
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
  | { readonly error: string; readonly latencyMs: number };

export interface ReceiverClientOptions {
  readonly allowPrivate: boolean;
  /** Ports a receiver may be reached on (a config saved before the setting changed is refused here). */
  readonly allowedPorts?: readonly number[] | undefined;
  readonly timeoutMs: number;
  /** Resolver used instead of the system's (tests). Must return every address of the host. */
  readonly resolve?: (hostname: string) => Promise<readonly LookupAddress[]>;
}

export type ReceiverClient = (request: ReceiverRequest) => Promise<ReceiverAnswer>;

class RefusedAddressError extends Error {}

export function createReceiverClient(options: ReceiverClientOptions): ReceiverClient {
  const resolve = options.resolve ?? systemResolve;
  const lookup = vettedLookup(resolve, options.allowPrivate);
  return (request) => post(request, options, lookup);
}

async function post(
  request: ReceiverRequest,
  options: ReceiverClientOptions,
  lookup: LookupFunction,
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
  if (request.signal?.aborted) return { error: abandonedMessage(request.signal), latencyMs: elapsed() };
  try {
    const response = await send(url, request, options.timeoutMs, lookup);
    return { ...response, latencyMs: elapsed() };
  } catch (error) {
    return { error: failureMessage(error, options.timeoutMs), latencyMs: elapsed() };
  }
}

function send(
  url: URL,
  request: ReceiverRequest,
  timeoutMs: number,
  lookup: LookupFunction,
): Promise<{ status: number; retryAfter: string | undefined; body: Buffer }> {
  const requestFn = url.protocol === "https:" ? httpsRequest : httpRequest;
  const body = Buffer.from(request.body);
  return new Promise((resolve, reject) => {
    const outgoing = requestFn(url, {
      method: "POST",
      headers: { ...request.headers, "Content-Length": String(body.length) },
      lookup,
      // A fresh connection per attempt: each one resolves and vets the host again.
      agent: false,
    });
    const timer = setTimeout(() => outgoing.destroy(new TimeoutError()), timeoutMs);
    const signal = request.signal;
    const onAbort = () => outgoing.destroy(new AbandonedError(abandonedMessage(signal)));
    signal?.addEventListener("abort", onAbort, { once: true });
    const settle = <A extends unknown[]>(fn: (...args: A) => void) => {
      return (...args: A) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        fn(...args);
      };
    };
    const done = settle(resolve);
    const failed = settle(reject);
    outgoing.on("error", failed);
    outgoing.on("response", (response) => {
      readCapped(response).then(
        (bytes) =>
          done({
            status: response.statusCode ?? 0,
            retryAfter: headerText(response, "retry-after"),
            body: bytes,
          }),
        failed,
      );
    });
    outgoing.end(body);
  });
}

/** Reads at most MAX_RESPONSE_BODY_BYTES + 1 bytes (so truncation is detectable), then drops the rest. */
function readCapped(response: IncomingMessage): Promise<Buffer> {
  const cap = MAX_RESPONSE_BODY_BYTES + 1;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on("data", (chunk: Buffer) => {
      if (size >= cap) return;
      chunks.push(chunk);
      size += chunk.length;
      if (size >= cap) {
        resolve(Buffer.concat(chunks).subarray(0, cap));
        response.destroy();
      }
    });
    response.on("end", () => resolve(Buffer.concat(chunks)));
    response.on("error", reject);
    response.on("close", () => resolve(Buffer.concat(chunks)));
  });
}

function headerText(response: IncomingMessage, name: string): string | undefined {
  const value = response.headers[name];
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
  return code === undefined ? message : `${code}: ${message}`;
}
