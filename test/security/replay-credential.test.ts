/**
 * Replaying a captured service credential. The whole platform runs on real PostgreSQL with its real
 * service authentication; an interceptor on the calls between services plays the wiretap (a process
 * standing in for the rail, or anything else on the path of one service's calls). It captures the
 * credential `gateway-admin` sends to the rail, to pricing and to the ledger, then replays each one to
 * another service — the ledger's CreditBalance, pricing's PutFxRate — and after the credential's expiry.
 * Every replay must be refused UNAUTHENTICATED and change nothing.
 */
import { Code, createClient, type Interceptor } from "@connectrpc/connect";
import { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { freshKey } from "../ledger/support/ledger-harness.js";
import { balanceOf } from "../ledger/support/ledger-invariants.js";
import { codeOf } from "../support/rpc-callers.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/** What the wiretap saw while listening: the authorization header of each call, by service. */
const captured: { service: string; method: string; authorization: string }[] = [];
let listening = true;
const wiretap: Interceptor = (next) => async (req) => {
  const authorization = req.header.get("authorization");
  if (listening && authorization) {
    captured.push({ service: req.service.typeName, method: req.method.name, authorization });
  }
  return next(req);
};

/** The last credential the platform sent to `service` (fully-qualified name). */
function credentialSentTo(service: string): string {
  const seen = captured.filter((c) => c.service === service).at(-1);
  if (seen === undefined) throw new Error(`no call to ${service} was captured`);
  return seen.authorization;
}

let platform: TestPlatform;
let partnerId: string;

beforeAll(async () => {
  platform = await startTestPlatform({ instrument: { rpcInterceptors: [wiretap] } });
  ({ partnerId } = await platform.createPartner());
  // The admin API at work: gateway-admin calls the rail, pricing and the ledger.
  await platform.admin("POST", "/admin/sandbox/transactions/tx_wiretap/settle", { outcome: "SUCCESS" });
  expect((await platform.admin("PUT", "/admin/fx-rates/KES", { rate_per_usd: "129.25" })).status).toBe(200);
  expect((await platform.admin("GET", `/admin/partners/${partnerId}/balance`)).status).toBe(200);
  // From here on the calls are the attacker's own replays.
  listening = false;
}, 120_000);

afterAll(() => platform?.close());
afterEach(() => vi.useRealTimers());

/** The services as anyone who can reach them, with only what they present in headers. */
const ledger = () => createClient(LedgerService, platform.runtime.transports.ledger!);
const pricing = () => createClient(PricingService, platform.runtime.transports.pricing!);
const credit = (authorization: string, amountUsd = "1000000") =>
  ledger().creditBalance(
    { partnerId, amountUsd, reference: "replayed credential", ...freshKey() },
    { headers: { authorization } },
  );

async function kesRate(): Promise<string> {
  const rates = await platform.admin("GET", "/admin/fx-rates");
  return rates.json.fx_rates.find((r: { currency: string }) => r.currency === "KES")?.rate_per_usd;
}

describe("a credential captured on its way to one service", () => {
  it("does not credit a balance at the ledger (captured at the rail, or at pricing)", async () => {
    for (const service of ["payouts.rail.v1.RailService", "payouts.pricing.v1.PricingService"]) {
      expect(await codeOf(credit(credentialSentTo(service))), service).toBe(Code.Unauthenticated);
    }
    expect(await balanceOf(platform.runtime.db, partnerId)).toMatch(/^0(\.0*)?$/);
  });

  it("does not change an FX rate at pricing (captured at the ledger, or at the rail)", async () => {
    for (const service of ["payouts.ledger.v1.LedgerService", "payouts.rail.v1.RailService"]) {
      const call = pricing().putFxRate(
        { currency: "KES", ratePerUsd: "1" },
        { headers: { authorization: credentialSentTo(service) } },
      );
      expect(await codeOf(call), service).toBe(Code.Unauthenticated);
    }
    expect(await kesRate()).toMatch(/^129\.250*$/);
  });

  it("stops working at the service it was meant for once it expires", async () => {
    const toLedger = credentialSentTo("payouts.ledger.v1.LedgerService");
    // Within its lifetime it is what the ledger accepts from gateway-admin (a read, changing nothing).
    const read = await ledger().getBalance({ partnerId }, { headers: { authorization: toLedger } });
    expect(read.balanceUsd).toMatch(/^0(\.0*)?$/);
    // Minutes later it is refused, although the ledger accepted (and remembered) it before.
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + 10 * 60_000);
    expect(await codeOf(credit(toLedger))).toBe(Code.Unauthenticated);
    vi.useRealTimers();
    expect(await balanceOf(platform.runtime.db, partnerId)).toMatch(/^0(\.0*)?$/);
  });
});
