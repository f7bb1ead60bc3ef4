import { Health } from "@payouts/proto/grpc/health/v1/health_pb";
import { LedgerAdminService } from "@payouts/proto/payouts/ledger/v1/ledger_admin_pb";
import { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import { WebhookAdminService } from "@payouts/proto/payouts/webhooks/v1/webhooks_admin_pb";
import { WebhookService } from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../config/env-config.js";
import { CALLER_ALLOWLIST, OPEN_SERVICES, SERVICE_CALLERS } from "./caller-allowlist.js";
import { loadServiceAuthConfig } from "./service-auth-config.js";
import {
  CallerDigests,
  generateServiceCredentials,
  generateServiceToken,
  parseCallerDigests,
  parseServiceTokens,
  serviceTokenDigest,
} from "./service-credentials.js";

describe("service credentials", () => {
  it("authenticate the caller a token names, only with the right secret", () => {
    const { tokens, callerDigests } = generateServiceCredentials();
    const digests = parseCallerDigests(callerDigests);
    for (const caller of SERVICE_CALLERS) expect(digests.authenticate(tokens[caller])).toBe(caller);
    const [name, secret] = tokens["gateway-admin"].split(".") as [string, string];
    const flipped = `${name}.${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
    expect(digests.authenticate(flipped)).toBeUndefined();
    // Another caller's secret under the admin's name.
    expect(digests.authenticate(`gateway-admin.${tokens.gateway.split(".")[1]}`)).toBeUndefined();
    expect(digests.authenticate("")).toBeUndefined();
    expect(digests.authenticate("nobody.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).toBeUndefined();
  });

  it("a server that holds only some digests refuses the other callers", () => {
    const admin = generateServiceToken("gateway-admin");
    const ledger = generateServiceToken("ledger");
    const digests = CallerDigests.of([ledger]);
    expect(digests.authenticate(ledger)).toBe("ledger");
    expect(digests.authenticate(admin)).toBeUndefined();
  });

  it("the process token lists hold exactly each process's identities", () => {
    const credentials = generateServiceCredentials();
    expect([...parseServiceTokens(credentials.processTokens.gateway).keys()]).toEqual([
      "gateway",
      "gateway-admin",
      "gateway-rail",
    ]);
    expect([...parseServiceTokens(credentials.processTokens.ledger).keys()]).toEqual(["ledger"]);
    expect(credentials.callerDigests).toContain(`ledger:${serviceTokenDigest(credentials.tokens.ledger)}`);
  });

  it("malformed settings are refused with a reason", () => {
    expect(() => parseServiceTokens("gateway.short")).toThrow(/32 base64url/);
    expect(() => parseServiceTokens(`intruder.${"a".repeat(43)}`)).toThrow(/unknown caller/);
    expect(() => parseCallerDigests("gateway:abc")).toThrow(/64 lowercase hex/);
    expect(() => parseCallerDigests("")).toThrow(/at least one/);
  });

  it("production mode refuses to start without the credentials a process needs", () => {
    const production = { NODE_ENV: "production" };
    expect(() => loadServiceAuthConfig(production, { server: true, callers: [] })).toThrow(ConfigError);
    expect(() => loadServiceAuthConfig(production, { server: false, callers: ["ledger"] })).toThrow(
      /SERVICE_TOKENS is required in production with a token for ledger/,
    );
    const { callerDigests, processTokens } = generateServiceCredentials();
    const ledger = loadServiceAuthConfig(
      { ...production, SERVICE_CALLER_DIGESTS: callerDigests, SERVICE_TOKENS: processTokens.ledger },
      { server: true, callers: ["ledger"] },
    );
    expect(ledger.tokens.get("ledger")).toBe(processTokens.ledger);
    // Development: allowed, and a server without digests fails closed (service-auth.ts).
    expect(loadServiceAuthConfig({}, { server: true, callers: ["ledger"] }).digests).toBeUndefined();
  });

  it("a config error never repeats a token", () => {
    const token = generateServiceToken("gateway");
    try {
      loadServiceAuthConfig({ SERVICE_TOKENS: `${token},${token}` }, { server: false, callers: [] });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toMatch(/SERVICE_TOKENS/);
      expect((error as Error).message).not.toContain(token.split(".")[1]);
    }
  });
});

describe("the caller allowlist", () => {
  const services = [
    LookupService,
    PricingService,
    LedgerService,
    LedgerAdminService,
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

  it("gives the operators' cross-partner services to the admin caller only", () => {
    for (const service of [LedgerAdminService, WebhookAdminService]) {
      for (const method of service.methods) {
        expect(CALLER_ALLOWLIST[`${service.typeName}/${method.name}`], method.name).toEqual([
          "gateway-admin",
        ]);
      }
    }
  });
});
