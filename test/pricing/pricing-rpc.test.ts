import { timestampDate } from "@bufbuild/protobuf/wkt";
import { type Client, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { createLogger } from "@payouts/platform/logging/logger";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { createPricingService, PRICING_MIGRATIONS } from "@payouts/pricing/pricing-service";
import { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";

/** The pricing service alone, over a Connect router transport, on a fresh real PostgreSQL database. */
const NOW = new Date("2025-11-20T12:00:00.000Z");

let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
let db: ReturnType<typeof createPgDatabase>;
let pricing: Client<typeof PricingService>;

async function rejectionOf(
  call: Promise<unknown>,
): Promise<{ reason: string | undefined; field: string | undefined }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConnectError);
  const detail = errorDetailOf(error);
  return { reason: detail?.reason, field: detail?.field };
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createPgDatabase({ connectionString: testDb.url, maxConnections: 4 });
  await migrate(db, PRICING_MIGRATIONS);
  const module = createPricingService({
    db,
    bus: createInProcessEventBus(),
    logger: createLogger({ service: "pricing-test", level: "silent" }),
    transports: {},
    env: { QUOTE_TTL_MS: "600000", PRICING_CACHE_TTL_MS: "60000" },
    mode: "distributed",
    now: () => NOW,
  });
  pricing = createClient(
    PricingService,
    createRouterTransport((router) => module.routes(router)),
  );
  await pricing.putFxRate({ currency: "BRL", ratePerUsd: "5.4" });
  await pricing.putFxRate({ currency: "vnd", ratePerUsd: "26300" });
  await pricing.putCorridor({
    corridor: { countryCode: "BR", currency: "BRL", minAmount: "1", maxAmount: "50000", enabled: true },
  });
  await pricing.putCorridor({
    corridor: {
      countryCode: "vn",
      currency: "vnd",
      minAmount: "10000",
      maxAmount: "500000000",
      enabled: true,
    },
  });
});

afterAll(async () => {
  await db?.close();
  await testDb?.drop();
});

describe("FX rates", () => {
  it("stores rates upper-cased at full precision and lists them in currency order", async () => {
    const put = await pricing.putFxRate({ currency: "pen", ratePerUsd: "3.123456789012345678" });
    expect(put.rate?.currency).toBe("PEN");
    expect(put.rate?.ratePerUsd).toBe("3.123456789012345678");
    expect(put.rate?.updatedAt).toBeDefined();
    const list = await pricing.listFxRates({});
    expect(list.rates.map((r) => [r.currency, r.ratePerUsd])).toEqual([
      ["BRL", "5.4"],
      ["PEN", "3.123456789012345678"],
      ["VND", "26300"],
    ]);
    expect((await pricing.deleteFxRate({ currency: "PEN" })).deleted).toBe(true);
    expect((await pricing.deleteFxRate({ currency: "PEN" })).deleted).toBe(false);
  });

  it.each([
    [{ currency: "BRL", ratePerUsd: "0" }, "rate_per_usd"],
    [{ currency: "BRL", ratePerUsd: "-1" }, "rate_per_usd"],
    [{ currency: "BRL", ratePerUsd: "1e5" }, "rate_per_usd"],
    [{ currency: "BRL", ratePerUsd: "" }, "rate_per_usd"],
    [{ currency: "XYZ", ratePerUsd: "1" }, "currency"],
    [{ currency: "XAU", ratePerUsd: "1" }, "currency"],
    [{ currency: "USD", ratePerUsd: "1" }, "currency"],
  ])("refuses %j at %s", async (request, field) => {
    expect(await rejectionOf(pricing.putFxRate(request))).toEqual({ reason: "INVALID_FIELD", field });
  });
});

describe("corridors", () => {
  it("lists corridors with limits at full precision", async () => {
    const list = await pricing.listCorridors({});
    expect(
      list.corridors.map((c) => [c.countryCode, c.currency, c.minAmount, c.maxAmount, c.enabled]),
    ).toEqual([
      ["BR", "BRL", "1", "50000", true],
      ["VN", "VND", "10000", "500000000", true],
    ]);
  });

  it.each([
    [{ countryCode: "BRA", currency: "BRL", minAmount: "1", maxAmount: "2", enabled: true }, "country_code"],
    [{ countryCode: "BR", currency: "XXX", minAmount: "1", maxAmount: "2", enabled: true }, "currency"],
    [{ countryCode: "BR", currency: "BRL", minAmount: "-1", maxAmount: "2", enabled: true }, "min_amount"],
    [{ countryCode: "BR", currency: "BRL", minAmount: "5", maxAmount: "2", enabled: true }, "max_amount"],
  ])("refuses %j at %s", async (corridor, field) => {
    expect(await rejectionOf(pricing.putCorridor({ corridor }))).toEqual({ reason: "INVALID_FIELD", field });
  });
});

describe("partner pricing", () => {
  it("answers no currencies and zero fees for a partner never configured", async () => {
    const res = await pricing.getPartnerPricing({ partnerId: "ptr_unknown" });
    expect(res.pricing).toMatchObject({
      partnerId: "ptr_unknown",
      supportedCurrencies: [],
      fees: { percent: "0", fixedUsd: "0" },
    });
  });

  it("applies partial updates: currencies only when asked, each fee half only when given", async () => {
    const partnerId = "ptr_partial";
    await pricing.putPartnerPricing({
      partnerId,
      supportedCurrencies: ["brl", "USD", "BRL"],
      setSupportedCurrencies: true,
      fees: { percent: "1.5", fixedUsd: "0.30" },
    });
    const kept = await pricing.putPartnerPricing({
      partnerId,
      supportedCurrencies: [],
      setSupportedCurrencies: false,
    });
    expect(kept.pricing).toMatchObject({
      supportedCurrencies: ["BRL", "USD"],
      fees: { percent: "1.5", fixedUsd: "0.3" },
    });
    const percentOnly = await pricing.putPartnerPricing({ partnerId, fees: { percent: "2", fixedUsd: "" } });
    expect(percentOnly.pricing?.fees).toMatchObject({ percent: "2", fixedUsd: "0.3" });
    const cleared = await pricing.putPartnerPricing({
      partnerId,
      supportedCurrencies: [],
      setSupportedCurrencies: true,
    });
    expect(cleared.pricing?.supportedCurrencies).toEqual([]);
    expect((await pricing.getPartnerPricing({ partnerId })).pricing?.fees).toMatchObject({ percent: "2" });
  });

  it.each([
    [
      { partnerId: "ptr_x", supportedCurrencies: ["BRL", "NOPE"], setSupportedCurrencies: true },
      "supported_currencies",
    ],
    [{ partnerId: "ptr_x", fees: { percent: "100", fixedUsd: "0" } }, "fees.percent"],
    [{ partnerId: "ptr_x", fees: { percent: "1", fixedUsd: "-0.3" } }, "fees.fixed_usd"],
    [{ partnerId: "" }, "partner_id"],
  ])("refuses %j at %s", async (request, field) => {
    expect(await rejectionOf(pricing.putPartnerPricing(request))).toEqual({ reason: "INVALID_FIELD", field });
  });
});

describe("PreviewQuotations", () => {
  it("prices every supported currency with a rate and within limits, expiring 30 minutes from now", async () => {
    await pricing.putPartnerPricing({
      partnerId: "ptr_preview",
      supportedCurrencies: ["USD", "BRL", "VND", "KES"],
      setSupportedCurrencies: true,
      fees: { percent: "1.5", fixedUsd: "0.30" },
    });
    const res = await pricing.previewQuotations({ partnerId: "ptr_preview", amount: "100", currency: "usd" });
    expect(
      res.quotations.map((q) => [q.currency, q.amount, q.exchangeRate, q.amountUsd, q.fee, q.totalUsd]),
    ).toEqual([
      ["USD", "100", "1", "100", "1.8", "101.8"],
      ["BRL", "540", "5.4", "100", "1.8", "101.8"],
      ["VND", "2630000", "26300", "100", "1.8", "101.8"],
    ]);
    for (const quote of res.quotations) {
      expect(timestampDate(quote.expiresAt!).toISOString()).toBe("2025-11-20T12:30:00.000Z");
      expect(quote.quoteId).toBe("");
    }
  });

  it.each([
    [{ amount: "0", currency: "USD" }, "INVALID_AMOUNT", "amount"],
    [{ amount: "10", currency: "" }, "MISSING_REQUIRED_FIELD", "currency"],
    [{ amount: "10", currency: "EUR" }, "INVALID_CURRENCY", "currency"],
  ])("refuses %j with %s", async (body, reason, field) => {
    expect(await rejectionOf(pricing.previewQuotations({ partnerId: "ptr_preview", ...body }))).toEqual({
      reason,
      field,
    });
  });

  it("sees an operator's rate change at once through this process, despite the cache", async () => {
    const before = await pricing.previewQuotations({
      partnerId: "ptr_preview",
      amount: "540",
      currency: "BRL",
    });
    expect(before.quotations[0]?.amountUsd).toBe("100");
    await pricing.putFxRate({ currency: "BRL", ratePerUsd: "5" });
    const after = await pricing.previewQuotations({
      partnerId: "ptr_preview",
      amount: "540",
      currency: "BRL",
    });
    expect(after.quotations[0]?.amountUsd).toBe("108");
    await pricing.putFxRate({ currency: "BRL", ratePerUsd: "5.4" });
  });
});

describe("CreateQuote", () => {
  it("prices a corridor amount with the partner's fees and a fresh quote id", async () => {
    await pricing.putPartnerPricing({ partnerId: "ptr_quote", fees: { percent: "1.5", fixedUsd: "0.30" } });
    const res = await pricing.createQuote({
      partnerId: "ptr_quote",
      countryCode: "br",
      currency: "",
      amount: "540",
    });
    expect(res.quote).toMatchObject({
      amount: "540",
      currency: "BRL",
      exchangeRate: "5.4",
      amountUsd: "100",
      percentageFee: "1.5",
      fixedFee: "0.3",
      fee: "1.8",
      totalUsd: "101.8",
    });
    expect(res.quote?.quoteId).toMatch(/^quo_[0-9a-z]{26}$/);
    expect(timestampDate(res.quote!.expiresAt!).toISOString()).toBe("2025-11-20T12:10:00.000Z");
    const again = await pricing.createQuote({
      partnerId: "ptr_quote",
      countryCode: "BR",
      currency: "",
      amount: "540",
    });
    expect(again.quote?.quoteId).not.toBe(res.quote?.quoteId);
  });

  it("converts an amount in USD into the corridor currency", async () => {
    const res = await pricing.createQuote({
      partnerId: "ptr_none",
      countryCode: "VN",
      currency: "USD",
      amount: "10",
    });
    expect(res.quote).toMatchObject({
      amount: "263000",
      currency: "VND",
      amountUsd: "10",
      fee: "0",
      totalUsd: "10",
    });
  });

  it.each([
    [{ countryCode: "BR", amount: "0" }, "INVALID_AMOUNT", "amount"],
    [{ countryCode: "BR", amount: "0.5" }, "AMOUNT_OUT_OF_RANGE", "amount"],
    [{ countryCode: "BR", amount: "50000.01" }, "AMOUNT_OUT_OF_RANGE", "amount"],
    [{ countryCode: "XX", amount: "10" }, "UNSUPPORTED_COUNTRY", "country_code"],
    [{ countryCode: "BR", amount: "10", currency: "EUR" }, "INVALID_CURRENCY", "currency"],
  ])("refuses %j with %s", async (request, reason, field) => {
    expect(
      await rejectionOf(pricing.createQuote({ partnerId: "ptr_quote", currency: "", ...request })),
    ).toEqual({ reason, field });
  });

  it("refuses a disabled corridor as unsupported", async () => {
    await pricing.putCorridor({
      corridor: { countryCode: "PE", currency: "PEN", minAmount: "1", maxAmount: "100", enabled: false },
    });
    expect(
      await rejectionOf(
        pricing.createQuote({ partnerId: "ptr_quote", countryCode: "PE", currency: "", amount: "10" }),
      ),
    ).toEqual({ reason: "UNSUPPORTED_COUNTRY", field: "country_code" });
  });
});
