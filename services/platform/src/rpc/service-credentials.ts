/**
 * Service-to-service credentials (services/platform/README.md, "Service authentication").
 *
 * Each caller identity (caller-allowlist.ts) has an Ed25519 key pair. A caller proves who it is with a
 * short-lived JWT it signs itself (EdDSA): iss = sub = the caller, aud = the one service it calls,
 * iat and exp (TOKEN_LIFETIME_SECONDS later). A server accepts a token only if its audience is the
 * server's own name, it has not expired, and it verifies under the public key of the caller it names.
 * A token captured at one service is therefore useless at any other, and everywhere after a few minutes.
 *
 * Keys travel as the base64url of their 32 raw bytes (the `d` and `x` of an Ed25519 JWK):
 *   SERVICE_PRIVATE_KEYS  callers: `<caller>:<private key>,...`, the identities this process acts as;
 *   SERVICE_CALLER_KEYS   servers: `<caller>:<public key>,...`, the callers they accept.
 * A server holds no private key, so no server can impersonate a caller.
 *
 * Costs: a caller signs one token per audience and reuses it until half its lifetime is left; a server
 * keeps each token it verified until its exp, so a call costs one map lookup on both sides.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import type { Transport } from "@connectrpc/connect";
import { decodeJwt, jwtVerify, SignJWT } from "jose";
import {
  type CallingProcess,
  callersOfService,
  isServiceCaller,
  PROCESS_CALLERS,
  SERVICE_CALLERS,
  type ServiceCaller,
} from "./caller-allowlist.js";

export const SERVICE_TOKEN_HEADER = "authorization";

/** The services a token can be addressed to: each server's own name, the key of its transport. */
export const SERVICE_AUDIENCES = ["lookup", "pricing", "ledger", "webhooks", "rail"] as const;
export type ServiceAudience = (typeof SERVICE_AUDIENCES)[number];

export function isServiceAudience(name: string): name is ServiceAudience {
  return (SERVICE_AUDIENCES as readonly string[]).includes(name);
}

/** How long a token is valid after it is signed. */
export const TOKEN_LIFETIME_SECONDS = 120;
/** The longest lifetime a server accepts, whatever a caller put in its token. */
export const MAX_TOKEN_LIFETIME_SECONDS = 300;
/** Clock difference tolerated between a caller and a server. */
const CLOCK_TOLERANCE_SECONDS = 5;
/** Verified tokens a server remembers; honest callers need one per identity and audience at a time. */
const VERIFIED_CACHE_ENTRIES = 1024;
const ALGORITHM = "EdDSA";
/** The DER prefix that turns a raw 32-byte Ed25519 seed into a PKCS#8 private key (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const RAW_KEY = /^[A-Za-z0-9_-]{43}$/;

type Clock = () => number;

/** An Ed25519 private key from the base64url of its 32-byte seed. */
export function privateKeyFromRaw(raw: string): KeyObject {
  if (!RAW_KEY.test(raw)) throw new Error("a key must be 43 base64url characters (32 bytes)");
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, Buffer.from(raw, "base64url")]);
  return createPrivateKey({ key: der, format: "der", type: "pkcs8" });
}

/** An Ed25519 public key from the base64url of its 32 bytes (a JWK's `x`). */
export function publicKeyFromRaw(raw: string): KeyObject {
  if (!RAW_KEY.test(raw)) throw new Error("a key must be 43 base64url characters (32 bytes)");
  return createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: raw }, format: "jwk" });
}

function rawOf(key: KeyObject): string {
  const jwk = key.export({ format: "jwk" });
  const raw = key.type === "private" ? jwk.d : jwk.x;
  if (raw === undefined) throw new Error("not an Ed25519 key");
  return raw;
}

/**
 * Signs the tokens of one caller identity: one per audience, re-signed once less than half of its
 * lifetime is left, so a token is signed about once a minute per audience rather than per call.
 */
export class ServiceTokenSigner {
  private readonly tokens = new Map<ServiceAudience, { token: Promise<string>; refreshAtMs: number }>();

  constructor(
    readonly caller: ServiceCaller,
    private readonly privateKey: KeyObject,
    private readonly options: { readonly lifetimeSeconds?: number; readonly now?: Clock } = {},
  ) {}

  tokenFor(audience: ServiceAudience): Promise<string> {
    const now = (this.options.now ?? Date.now)();
    const cached = this.tokens.get(audience);
    if (cached !== undefined && now < cached.refreshAtMs) return cached.token;
    const lifetime = this.options.lifetimeSeconds ?? TOKEN_LIFETIME_SECONDS;
    const iat = Math.floor(now / 1000);
    const token = new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
      .setIssuer(this.caller)
      .setSubject(this.caller)
      .setAudience(audience)
      .setIssuedAt(iat)
      .setExpirationTime(iat + lifetime)
      .sign(this.privateKey);
    this.tokens.set(audience, { token, refreshAtMs: (iat + lifetime / 2) * 1000 });
    // A failed signature is not kept: the next call signs again.
    token.catch(() => this.tokens.delete(audience));
    return token;
  }
}

/**
 * The server side: which caller a presented token proves to be, for one audience (this service).
 * Verified tokens are remembered until their exp, at most VERIFIED_CACHE_ENTRIES of them.
 */
export class ServiceTokenVerifier {
  private readonly verified = new Map<string, { caller: ServiceCaller; expMs: number }>();
  private readonly now: Clock;
  private readonly maxEntries: number;

  constructor(
    readonly audience: ServiceAudience,
    private readonly keys: ReadonlyMap<ServiceCaller, KeyObject>,
    options: { readonly now?: Clock; readonly maxEntries?: number } = {},
  ) {
    // Read at each call (not bound once), so a clock set by a test harness is seen.
    this.now = options.now ?? (() => Date.now());
    this.maxEntries = options.maxEntries ?? VERIFIED_CACHE_ENTRIES;
  }

  /** The caller `token` authenticates for this audience now; undefined if none. Never throws. */
  async authenticate(token: string): Promise<ServiceCaller | undefined> {
    const now = this.now();
    const hit = this.verified.get(token);
    if (hit !== undefined) {
      if (now < hit.expMs) return hit.caller;
      this.verified.delete(token);
    }
    const caller = claimedCaller(token);
    const key = caller === undefined ? undefined : this.keys.get(caller);
    if (caller === undefined || key === undefined) return undefined;
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [ALGORITHM],
        audience: this.audience,
        issuer: caller,
        subject: caller,
        requiredClaims: ["iat", "exp"],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        currentDate: new Date(now),
      });
      const exp = payload.exp as number;
      const iat = payload.iat as number;
      if (exp - iat > MAX_TOKEN_LIFETIME_SECONDS) return undefined;
      if (iat * 1000 > now + CLOCK_TOLERANCE_SECONDS * 1000) return undefined;
      this.remember(token, caller, exp * 1000);
      return caller;
    } catch {
      return undefined;
    }
  }

  get callers(): readonly ServiceCaller[] {
    return [...this.keys.keys()];
  }

  /** How many verified tokens are remembered (tests). */
  get cachedTokens(): number {
    return this.verified.size;
  }

  private remember(token: string, caller: ServiceCaller, expMs: number): void {
    if (this.verified.size >= this.maxEntries) {
      const now = this.now();
      for (const [t, entry] of this.verified) if (entry.expMs <= now) this.verified.delete(t);
      // Still full: forget the oldest (a Map iterates in insertion order).
      while (this.verified.size >= this.maxEntries) {
        const oldest = this.verified.keys().next().value as string;
        this.verified.delete(oldest);
      }
    }
    this.verified.set(token, { caller, expMs });
  }
}

/**
 * The known caller a token names (its unverified iss), or undefined. Says nothing about whether the
 * token is valid: for choosing the key to verify with and for logging who was refused.
 */
export function claimedCaller(token: string): ServiceCaller | undefined {
  try {
    const { iss } = decodeJwt(token);
    return typeof iss === "string" && isServiceCaller(iss) ? iss : undefined;
  } catch {
    return undefined;
  }
}

/** `SERVICE_PRIVATE_KEYS`: one signer per identity this process acts as. */
export function parsePrivateKeys(raw: string): ReadonlyMap<ServiceCaller, ServiceTokenSigner> {
  const signers = new Map<ServiceCaller, ServiceTokenSigner>();
  for (const [caller, key] of callerEntries(raw, "private key")) {
    signers.set(caller, new ServiceTokenSigner(caller, privateKeyFromRaw(key)));
  }
  return signers;
}

/** `SERVICE_CALLER_KEYS`: the public key of each caller a server accepts. */
export function parseCallerKeys(raw: string): ReadonlyMap<ServiceCaller, KeyObject> {
  const keys = new Map<ServiceCaller, KeyObject>();
  for (const [caller, key] of callerEntries(raw, "public key")) keys.set(caller, publicKeyFromRaw(key));
  if (keys.size === 0) throw new Error("expected at least one <caller>:<public key>");
  return keys;
}

function callerEntries(raw: string, what: string): [ServiceCaller, string][] {
  const entries: [ServiceCaller, string][] = [];
  for (const entry of splitList(raw)) {
    const [caller = "", key = "", ...rest] = entry.split(":");
    if (!isServiceCaller(caller))
      throw new Error(`unknown caller "${caller}" (known: ${SERVICE_CALLERS.join(", ")})`);
    if (rest.length > 0 || !RAW_KEY.test(key)) {
      throw new Error(`the ${what} of "${caller}" must be 43 base64url characters (32 bytes)`);
    }
    if (entries.some(([c]) => c === caller)) throw new Error(`two ${what}s for caller "${caller}"`);
    entries.push([caller, key]);
  }
  return entries;
}

/**
 * The keys a server of `audience` holds: those of the callers the allowlist names on its RPCs, so a
 * service cannot even authenticate a caller it never serves.
 */
export function acceptedKeys(
  keys: ReadonlyMap<ServiceCaller, KeyObject>,
  audience: ServiceAudience,
): ReadonlyMap<ServiceCaller, KeyObject> {
  const accepted = callersOfService(audience);
  return new Map([...keys].filter(([caller]) => accepted.includes(caller)));
}

/** Fresh key pairs for every caller: what a launcher hands each process for one run. */
export interface GeneratedCredentials {
  /** Each identity's private key, as SERVICE_PRIVATE_KEYS encodes it. */
  readonly privateKeys: Readonly<Record<ServiceCaller, string>>;
  /** The value of `SERVICE_CALLER_KEYS` for every server: every caller's public key. */
  readonly callerKeys: string;
  /** The value of `SERVICE_PRIVATE_KEYS` for each calling process: its own identities only. */
  readonly processKeys: Readonly<Record<CallingProcess, string>>;
}

export function generateServiceCredentials(): GeneratedCredentials {
  const pairs = SERVICE_CALLERS.map((caller) => [caller, generateKeyPairSync("ed25519")] as const);
  const privateKeys = Object.fromEntries(
    pairs.map(([caller, pair]) => [caller, rawOf(pair.privateKey)]),
  ) as Record<ServiceCaller, string>;
  const processKeys = Object.fromEntries(
    Object.entries(PROCESS_CALLERS).map(([process, callers]) => [
      process,
      callers.map((caller) => `${caller}:${privateKeys[caller]}`).join(","),
    ]),
  ) as Record<CallingProcess, string>;
  return {
    privateKeys,
    callerKeys: pairs.map(([caller, pair]) => `${caller}:${rawOf(pair.publicKey)}`).join(","),
    processKeys,
  };
}

/** A signer for `caller` from a generated set (launchers and tests). */
export function signerOf(credentials: GeneratedCredentials, caller: ServiceCaller): ServiceTokenSigner {
  return new ServiceTokenSigner(caller, privateKeyFromRaw(credentials.privateKeys[caller]));
}

/** A verifier for `audience` accepting the callers of a generated set it serves (launchers and tests). */
export function verifierOf(
  credentials: GeneratedCredentials,
  audience: ServiceAudience,
): ServiceTokenVerifier {
  return new ServiceTokenVerifier(audience, acceptedKeys(parseCallerKeys(credentials.callerKeys), audience));
}

/** A transport whose every call carries a token `signer` addressed to `audience`. */
export function transportSignedBy(
  transport: Transport,
  signer: ServiceTokenSigner,
  audience: ServiceAudience,
): Transport {
  const withAuth = async (header: ConstructorParameters<typeof Headers>[0]): Promise<Headers> => {
    const headers = new Headers(header);
    headers.set(SERVICE_TOKEN_HEADER, `Bearer ${await signer.tokenFor(audience)}`);
    return headers;
  };
  return {
    unary: async (method, signal, timeoutMs, header, message, contextValues) =>
      transport.unary(method, signal, timeoutMs, await withAuth(header), message, contextValues),
    stream: async (method, signal, timeoutMs, header, input, contextValues) =>
      transport.stream(method, signal, timeoutMs, await withAuth(header), input, contextValues),
  };
}

/**
 * Every transport of a set keyed by service (lookup, pricing, …) carrying tokens of `signer`, each
 * addressed to the service its transport reaches; the set itself when there is no signer.
 */
export function transportsSignedBy<T extends { readonly [K in keyof T]?: Transport | undefined }>(
  transports: T,
  signer: ServiceTokenSigner | undefined,
): T {
  if (signer === undefined) return transports;
  return Object.fromEntries(
    Object.entries(transports).map(([service, transport]) => {
      if (!isServiceAudience(service)) throw new Error(`no audience for the transport "${service}"`);
      return [service, transport && transportSignedBy(transport as Transport, signer, service)];
    }),
  ) as T;
}

function splitList(raw: string): string[] {
  return raw
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
