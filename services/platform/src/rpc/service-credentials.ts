/**
 * Service-to-service credentials (services/platform/README.md, "Service authentication").
 *
 * A credential is a token `<caller>.<secret>`: the caller's name in clear (so a server knows whose digest
 * to compare and can log who was refused, never the token) and at least 32 random base64url characters.
 * A process sends its token as `authorization: Bearer <token>` gRPC metadata. Servers hold only SHA-256
 * digests of the tokens (`SERVICE_CALLER_DIGESTS`), so no server can impersonate a caller, and a caller holds
 * only its own tokens (`SERVICE_TOKENS`): least privilege both ways.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Transport } from "@connectrpc/connect";
import {
  type CallingProcess,
  isServiceCaller,
  PROCESS_CALLERS,
  SERVICE_CALLERS,
  type ServiceCaller,
} from "./caller-allowlist.js";

export const SERVICE_TOKEN_HEADER = "authorization";
const TOKEN = /^([a-z][a-z0-9-]{0,62})\.([A-Za-z0-9_-]{32,256})$/;
const DIGEST = /^[0-9a-f]{64}$/;

/** The caller a well-formed token names, or undefined. Says nothing about whether the token is valid. */
export function callerNamedBy(token: string): string | undefined {
  return TOKEN.exec(token)?.[1];
}

export function generateServiceToken(caller: ServiceCaller): string {
  return `${caller}.${randomBytes(32).toString("base64url")}`;
}

/** Hex SHA-256 of the whole token, as `SERVICE_CALLER_DIGESTS` holds it. */
export function serviceTokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** `SERVICE_TOKENS`: comma-separated tokens of this process, one per identity it acts as. */
export function parseServiceTokens(raw: string): ReadonlyMap<ServiceCaller, string> {
  const tokens = new Map<ServiceCaller, string>();
  for (const token of splitList(raw)) {
    const caller = callerNamedBy(token);
    if (caller === undefined) {
      throw new Error("each token must be <caller>.<at least 32 base64url characters>");
    }
    if (!isServiceCaller(caller))
      throw new Error(`unknown caller "${caller}" (known: ${SERVICE_CALLERS.join(", ")})`);
    if (tokens.has(caller)) throw new Error(`two tokens for caller "${caller}"`);
    tokens.set(caller, token);
  }
  return tokens;
}

/** `SERVICE_CALLER_DIGESTS`: comma-separated `<caller>:<hex SHA-256 of its token>`. */
export function parseCallerDigests(raw: string): CallerDigests {
  const digests = new Map<ServiceCaller, Buffer>();
  for (const entry of splitList(raw)) {
    const [caller = "", digest = ""] = entry.split(":");
    if (!isServiceCaller(caller))
      throw new Error(`unknown caller "${caller}" (known: ${SERVICE_CALLERS.join(", ")})`);
    if (!DIGEST.test(digest)) throw new Error(`the digest of "${caller}" must be 64 lowercase hex digits`);
    if (digests.has(caller)) throw new Error(`two digests for caller "${caller}"`);
    digests.set(caller, Buffer.from(digest, "hex"));
  }
  if (digests.size === 0) throw new Error("expected at least one <caller>:<sha256 hex>");
  return new CallerDigests(digests);
}

/** The digests a server accepts: answers which caller a presented token authenticates, if any. */
export class CallerDigests {
  // Compared against when the named caller is unknown, so both paths cost one hash and one comparison.
  private static readonly DUMMY = Buffer.alloc(32);

  constructor(private readonly digests: ReadonlyMap<ServiceCaller, Buffer>) {}

  static of(tokens: Iterable<string>): CallerDigests {
    const digests = new Map<ServiceCaller, Buffer>();
    for (const token of tokens) {
      const caller = callerNamedBy(token);
      if (caller !== undefined && isServiceCaller(caller)) {
        digests.set(caller, Buffer.from(serviceTokenDigest(token), "hex"));
      }
    }
    return new CallerDigests(digests);
  }

  /** The caller `token` proves to be, in constant time for a given token length; undefined if none. */
  authenticate(token: string): ServiceCaller | undefined {
    const named = callerNamedBy(token);
    const expected =
      (named !== undefined && isServiceCaller(named) && this.digests.get(named)) || CallerDigests.DUMMY;
    const given = createHash("sha256").update(token, "utf8").digest();
    const match = timingSafeEqual(given, expected) && expected !== CallerDigests.DUMMY;
    return match ? (named as ServiceCaller) : undefined;
  }

  get callers(): readonly ServiceCaller[] {
    return [...this.digests.keys()];
  }
}

/** Fresh credentials for every caller: what a launcher hands each process for one run. */
export interface GeneratedCredentials {
  readonly tokens: Readonly<Record<ServiceCaller, string>>;
  /** The value of `SERVICE_CALLER_DIGESTS` for every server. */
  readonly callerDigests: string;
  /** The value of `SERVICE_TOKENS` for each calling process. */
  readonly processTokens: Readonly<Record<CallingProcess, string>>;
}

export function generateServiceCredentials(): GeneratedCredentials {
  const tokens = Object.fromEntries(
    SERVICE_CALLERS.map((caller) => [caller, generateServiceToken(caller)]),
  ) as Record<ServiceCaller, string>;
  const processTokens = Object.fromEntries(
    Object.entries(PROCESS_CALLERS).map(([process, callers]) => [
      process,
      callers.map((caller) => tokens[caller]).join(","),
    ]),
  ) as Record<CallingProcess, string>;
  return {
    tokens,
    callerDigests: SERVICE_CALLERS.map((caller) => `${caller}:${serviceTokenDigest(tokens[caller])}`).join(
      ",",
    ),
    processTokens,
  };
}

/** A transport whose every call carries `token`; the same wrapper in the distributed and embedded modes. */
export function transportWithToken(transport: Transport, token: string): Transport {
  const withAuth = (header: ConstructorParameters<typeof Headers>[0]): Headers => {
    const headers = new Headers(header);
    headers.set(SERVICE_TOKEN_HEADER, `Bearer ${token}`);
    return headers;
  };
  return {
    unary: (method, signal, timeoutMs, header, message, contextValues) =>
      transport.unary(method, signal, timeoutMs, withAuth(header), message, contextValues),
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      transport.stream(method, signal, timeoutMs, withAuth(header), input, contextValues),
  };
}

/** Every transport of a set (by service) carrying `token`; the set itself when there is no token. */
export function transportsWithToken<T extends { readonly [K in keyof T]?: Transport | undefined }>(
  transports: T,
  token: string | undefined,
): T {
  if (token === undefined) return transports;
  return Object.fromEntries(
    Object.entries(transports).map(([service, transport]) => [
      service,
      transport && transportWithToken(transport as Transport, token),
    ]),
  ) as T;
}

function splitList(raw: string): string[] {
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
