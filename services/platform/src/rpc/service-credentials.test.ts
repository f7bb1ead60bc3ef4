import { generateKeyPairSync } from "node:crypto";
import { Health } from "@payouts/proto/grpc/health/v1/health_pb";
import { BatchService } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { LedgerAdminService } from "@payouts/proto/payouts/ledger/v1/ledger_admin_pb";
import { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { ReconciliationService } from "@payouts/proto/payouts/ledger/v1/reconciliation_pb";
import { StatementService } from "@payouts/proto/payouts/ledger/v1/statements_pb";
import { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import { WebhookAdminService } from "@payouts/proto/payouts/webhooks/v1/webhooks_admin_pb";
import { WebhookService } from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../config/env-config.js";
import { CALLER_ALLOWLIST, OPEN_SERVICES, SERVICE_CALLERS } from "./caller-allowlist.js";
import { loadServiceAuthConfig } from "./service-auth-config.js";
import {
  claimedCaller,
  generateServiceCredentials,
  MAX_TOKEN_LIFETIME_SECONDS,
  parseCallerKeys,
  parsePrivateKeys,
  privateKeyFromRaw,
  ServiceTokenSigner,
  ServiceTokenVerifier,
  signerOf,
  TOKEN_LIFETIME_SECONDS,
  verifierOf,
} from "./service-credentials.js";

/** A clock the test moves by hand, in milliseconds. */
function manualClock(start = Date.UTC(2026, 0, 1)) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const credentials = generateServiceCredentials();

describe("service tokens", () => {
  it("are accepted by the service they are addressed to, as the caller that signed them", async () => {
    const verifier = new ServiceTokenVerifier("ledger", parseCallerKeys(credentials.callerKeys));
    for (const caller of SERVICE_CALLERS) {
      const token = await signerOf(credentials, caller).tokenFor("ledger");
      expect(await verifier.authenticate(token)).toBe(caller);
      expect(claimedCaller(token)).toBe(caller);
    }
  });

  it("are checked by a server holding only the keys of the callers its RPCs accept", async () => {
    expect(verifierOf(credentials, "lookup").callers).toEqual(["gateway", "ledger"]);
    expect(verifierOf(credentials, "rail").callers).toEqual(["gateway-admin", "ledger"]);
    expect(verifierOf(credentials, "ledger").callers).toEqual(["gateway", "gateway-admin", "gateway-rail"]);
    const railRoute = await signerOf(credentials, "gateway-rail").tokenFor("lookup");
    expect(await verifierOf(credentials, "lookup").authenticate(railRoute)).toBeUndefined();
  });

  it("carry the caller, the one audience and a short lifetime", async () => {
    const token = await signerOf(credentials, "gateway-admin").tokenFor("pricing");
    const [header, payload] = token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString("utf8")));
    expect(header).toMatchObject({ alg: "EdDSA" });
    expect(payload).toMatchObject({ iss: "gateway-admin", sub: "gateway-admin", aud: "pricing" });
    expect(payload.exp - payload.iat).toBe(TOKEN_LIFETIME_SECONDS);
  });

  it("are refused by any other service (wrong audience)", async () => {
    const token = await signerOf(credentials, "gateway-admin").tokenFor("pricing");
    for (const audience of ["lookup", "ledger", "webhooks", "rail"] as const) {
      expect(await verifierOf(credentials, audience).authenticate(token), audience).toBeUndefined();
    }
  });

  it("are refused once expired, and a cached token is forgotten at its exp", async () => {
    const clock = manualClock();
    const signer = new ServiceTokenSigner("ledger", privateKeyFromRaw(credentials.privateKeys["ledger"]), {
      now: clock.now,
    });
    const verifier = new ServiceTokenVerifier("rail", parseCallerKeys(credentials.callerKeys), {
      now: clock.now,
    });
    const token = await signer.tokenFor("rail");
    expect(await verifier.authenticate(token)).toBe("ledger");
    expect(verifier.cachedTokens).toBe(1);
    clock.advance((TOKEN_LIFETIME_SECONDS - 1) * 1000);
    expect(await verifier.authenticate(token)).toBe("ledger");
    // Past exp and the clock tolerance: refused although the verifier had it cached.
    clock.advance(10_000);
    expect(await verifier.authenticate(token)).toBeUndefined();
    expect(verifier.cachedTokens).toBe(0);
  });

  it("are refused when tampered with, or signed with a key that is not the caller's", async () => {
    const verifier = verifierOf(credentials, "ledger");
    const token = await signerOf(credentials, "gateway").tokenFor("ledger");
    const [header, , signature] = token.split(".");
    const claims = { iss: "gateway-admin", sub: "gateway-admin", aud: "ledger", iat: 1, exp: 2 };
    const now = Math.floor(Date.now() / 1000);
    claims.iat = now;
    claims.exp = now + 60;
    const swapped = `${header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${signature}`;
    expect(await verifier.authenticate(swapped)).toBeUndefined();
    const flipped = `${token.slice(0, -2)}${token.endsWith("AA") ? "BB" : "AA"}`;
    expect(await verifier.authenticate(flipped)).toBeUndefined();
    // The gateway's key signing a token that claims to be the admin identity.
    const forged = new ServiceTokenSigner(
      "gateway-admin",
      privateKeyFromRaw(credentials.privateKeys.gateway),
    );
    expect(await verifier.authenticate(await forged.tokenFor("ledger"))).toBeUndefined();
    // A key pair from another run (a second deployment's credentials).
    const other = generateServiceCredentials();
    expect(await verifier.authenticate(await signerOf(other, "gateway").tokenFor("ledger"))).toBeUndefined();
  });

  it("are refused for a caller the server holds no key for, or that is unknown", async () => {
    const onlyLedger = parseCallerKeys(
      credentials.callerKeys
        .split(",")
        .filter((e) => e.startsWith("ledger:"))
        .join(","),
    );
    const verifier = new ServiceTokenVerifier("rail", onlyLedger);
    expect(await verifier.authenticate(await signerOf(credentials, "ledger").tokenFor("rail"))).toBe(
      "ledger",
    );
    expect(
      await verifier.authenticate(await signerOf(credentials, "gateway-admin").tokenFor("rail")),
    ).toBeUndefined();
    const { privateKey } = generateKeyPairSync("ed25519");
    const now = Math.floor(Date.now() / 1000);
    const intruder = await new SignJWT({})
      .setProtectedHeader({ alg: "EdDSA" })
      .setIssuer("intruder")
      .setSubject("intruder")
      .setAudience("rail")
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(privateKey);
    expect(await verifier.authenticate(intruder)).toBeUndefined();
    expect(await verifier.authenticate("")).toBeUndefined();
    expect(await verifier.authenticate("not.a.jwt")).toBeUndefined();
  });

  it("are refused when their lifetime is longer than a server accepts, or they are issued in the future", async () => {
    const verifier = verifierOf(credentials, "ledger");
    const key = privateKeyFromRaw(credentials.privateKeys["gateway-admin"]);
    const now = Math.floor(Date.now() / 1000);
    const sign = (iat: number, exp: number) =>
      new SignJWT({})
        .setProtectedHeader({ alg: "EdDSA" })
        .setIssuer("gateway-admin")
        .setSubject("gateway-admin")
        .setAudience("ledger")
        .setIssuedAt(iat)
        .setExpirationTime(exp)
        .sign(key);
    expect(await verifier.authenticate(await sign(now, now + 60))).toBe("gateway-admin");
    expect(
      await verifier.authenticate(await sign(now, now + MAX_TOKEN_LIFETIME_SECONDS + 60)),
    ).toBeUndefined();
    expect(await verifier.authenticate(await sign(now + 600, now + 660))).toBeUndefined();
  });

  it("are signed once per audience and re-signed before they expire", async () => {
    const clock = manualClock();
    const key = privateKeyFromRaw(credentials.privateKeys["ledger"]);
    const signer = new ServiceTokenSigner("ledger", key, { now: clock.now });
    const first = await signer.tokenFor("rail");
    expect(await signer.tokenFor("rail")).toBe(first);
    expect(await signer.tokenFor("pricing")).not.toBe(first);
    clock.advance((TOKEN_LIFETIME_SECONDS / 2 - 1) * 1000);
    expect(await signer.tokenFor("rail")).toBe(first);
    clock.advance(2000);
    const second = await signer.tokenFor("rail");
    expect(second).not.toBe(first);
    const verifier = new ServiceTokenVerifier("rail", parseCallerKeys(credentials.callerKeys), {
      now: clock.now,
    });
    expect(await verifier.authenticate(second)).toBe("ledger");
  });

  it("keep a bounded cache on the server", async () => {
    const clock = manualClock(Date.now());
    const verifier = new ServiceTokenVerifier("ledger", parseCallerKeys(credentials.callerKeys), {
      now: clock.now,
      maxEntries: 3,
    });
    const key = privateKeyFromRaw(credentials.privateKeys["ledger"]);
    for (let i = 0; i < 5; i++) {
      const signer = new ServiceTokenSigner("ledger", key, { now: clock.now });
      expect(await verifier.authenticate(await signer.tokenFor("ledger"))).toBe("ledger");
      clock.advance(1000);
    }
    expect(verifier.cachedTokens).toBe(3);
  });
});

describe("service keys", () => {
  it("give each calling process only its own identities", () => {
    expect([...parsePrivateKeys(credentials.processKeys.gateway).keys()]).toEqual([
      "gateway",
      "gateway-admin",
      "gateway-rail",
    ]);
    expect([...parsePrivateKeys(credentials.processKeys.ledger).keys()]).toEqual(["ledger"]);
    expect([...parseCallerKeys(credentials.callerKeys).keys()]).toEqual([...SERVICE_CALLERS]);
  });

  it("refuse malformed values", () => {
    expect(() => parsePrivateKeys("gateway:short")).toThrow(/43 base64url/);
    expect(() => parsePrivateKeys(`intruder:${"a".repeat(43)}`)).toThrow(/unknown caller/);
    expect(() => parseCallerKeys(`gateway:${"a".repeat(43)},gateway:${"b".repeat(43)}`)).toThrow(
      /two public keys/,
    );
    expect(() => parseCallerKeys("")).toThrow(/at least one/);
  });

  it("are required in production mode, per role", () => {
    const production = { NODE_ENV: "production" };
    expect(() => loadServiceAuthConfig(production, { server: "lookup", callers: [] })).toThrow(ConfigError);
    expect(() => loadServiceAuthConfig(production, { server: undefined, callers: ["ledger"] })).toThrow(
      /SERVICE_PRIVATE_KEYS is required in production with a key for ledger/,
    );
    const ledger = loadServiceAuthConfig(
      {
        ...production,
        SERVICE_CALLER_KEYS: credentials.callerKeys,
        SERVICE_PRIVATE_KEYS: credentials.processKeys.ledger,
      },
      { server: "ledger", callers: ["ledger"] },
    );
    expect(ledger.verifier?.audience).toBe("ledger");
    expect([...ledger.signers.keys()]).toEqual(["ledger"]);
    // Development: allowed, and a server without keys fails closed (service-auth.ts).
    expect(loadServiceAuthConfig({}, { server: "ledger", callers: ["ledger"] }).verifier).toBeUndefined();
  });

  it("a config error never repeats a private key", () => {
    const key = credentials.privateKeys.gateway;
    try {
      loadServiceAuthConfig(
        { SERVICE_PRIVATE_KEYS: `gateway:${key},gateway:${key}` },
        { server: undefined, callers: [] },
      );
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/SERVICE_PRIVATE_KEYS/);
      expect((error as Error).message).not.toContain(key);
    }
  });
});

describe("the caller allowlist", () => {
  const services = [
    LookupService,
    PricingService,
    LedgerService,
    LedgerAdminService,
    StatementService,
    ReconciliationService,
    BatchService,
    WebhookService,
    WebhookAdminService,
    RailService,
  ];

  it("names every RPC of every service, and nothing else", () => {
    const procedures = services.flatMap((s) => s.methods.map((m) => `${s.typeName}/${m.name}`));
    expect(Object.keys(CALLER_ALLOWLIST).sort()).toEqual(procedures.sort());
  });

  it("names only known callers, and keeps health open", () => {
    for (const callers of Object.values(CALLER_ALLOWLIST)) {
      expect(callers.length).toBeGreaterThan(0);
      for (const caller of callers) expect(SERVICE_CALLERS).toContain(caller);
    }
    expect(OPEN_SERVICES).toEqual([Health.typeName]);
  });

  it("gives money-moving and rail RPCs to one caller each", () => {
    expect(CALLER_ALLOWLIST["payouts.ledger.v1.LedgerService/CreditBalance"]).toEqual(["gateway-admin"]);
    expect(CALLER_ALLOWLIST["payouts.ledger.v1.LedgerService/RefundTransaction"]).toEqual(["gateway-admin"]);
    expect(CALLER_ALLOWLIST["payouts.ledger.v1.LedgerService/RecordRailResult"]).toEqual(["gateway-rail"]);
    expect(CALLER_ALLOWLIST["payouts.ledger.v1.LedgerService/QuoteTransaction"]).toEqual(["gateway"]);
    expect(CALLER_ALLOWLIST["payouts.rail.v1.RailService/SubmitPayout"]).toEqual(["ledger"]);
    // Funding a batch moves money: only the partner API approves, never an operator.
    expect(CALLER_ALLOWLIST["payouts.ledger.v1.BatchService/ApproveBatch"]).toEqual(["gateway"]);
  });

  it("gives the receiver health RPCs (list, pause, resume) to the admin caller only", () => {
    for (const method of ["ListReceiverHealth", "PauseReceiver", "ResumeReceiver"]) {
      expect(CALLER_ALLOWLIST[`payouts.webhooks.v1.WebhookAdminService/${method}`], method).toEqual([
        "gateway-admin",
      ]);
    }
  });

  it("lets the ledger, and only the ledger, ask pricing for a binding quote, and nothing else of pricing", () => {
    const pricing = Object.entries(CALLER_ALLOWLIST).filter(([method]) =>
      method.startsWith("payouts.pricing."),
    );
    expect(pricing.filter(([, callers]) => callers.includes("ledger")).map(([method]) => method)).toEqual([
      "payouts.pricing.v1.PricingService/CreateQuote",
    ]);
    expect(CALLER_ALLOWLIST["payouts.pricing.v1.PricingService/CreateQuote"]).toEqual(["ledger"]);
  });

  it("lets the ledger resolve destinations (bulk payout validation), and nothing else of lookup", () => {
    const lookup = Object.entries(CALLER_ALLOWLIST).filter(([method]) =>
      method.startsWith("payouts.lookup."),
    );
    expect(lookup.filter(([, callers]) => callers.includes("ledger")).map(([method]) => method)).toEqual([
      "payouts.lookup.v1.LookupService/ResolveDestination",
    ]);
  });

  it("gives the operators' cross-partner services to the admin caller only", () => {
    for (const service of [LedgerAdminService, ReconciliationService, WebhookAdminService]) {
      for (const method of service.methods) {
        expect(CALLER_ALLOWLIST[`${service.typeName}/${method.name}`], method.name).toEqual([
          "gateway-admin",
        ]);
      }
    }
  });
});
