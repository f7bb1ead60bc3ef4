import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { putReferenceData } from "./pricing-fixtures.js";

/** Operators' pricing controls through the real admin listener, and their effect on partner previews. */
let platform: TestPlatform;

const currenciesOf = (res: { json: { quotations: { currency: string }[] } }) =>
  res.json.quotations.map((q) => q.currency);

beforeAll(async () => {
  platform = await startTestPlatform();
  await putReferenceData(platform);
});

afterAll(async () => {
  await platform?.close();
});

describe("admin authentication", () => {
  it.each([
    ["GET", "/admin/fx-rates"],
    ["PUT", "/admin/fx-rates/BRL"],
    ["DELETE", "/admin/fx-rates/BRL"],
    ["GET", "/admin/corridors"],
    ["PUT", "/admin/corridors/BR"],
  ])("refuses %s %s without the bearer token", async (method, path) => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", "Basic abc"]) {
      const res = await fetch(`${platform.adminUrl}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(authorization === undefined ? {} : { authorization }),
        },
        ...(method === "PUT" ? { body: JSON.stringify({ rate_per_usd: "1" }) } : {}),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(((await res.json()) as { code: string }).code).toBe("AUTHENTICATION_REQUIRED");
    }
    expect((await platform.admin("GET", "/admin/fx-rates")).json.fx_rates).toContainEqual(
      expect.objectContaining({ currency: "BRL", rate_per_usd: "5.4" }),
    );
  });
});

describe("FX rates", () => {
  it("sets a rate given as a string or a number and answers it as a string at full precision", async () => {
    const precise = await platform.admin("PUT", "/admin/fx-rates/pen", {
      rate_per_usd: "3.123456789012345678",
    });
    expect(precise.status, precise.text).toBe(200);
    expect(precise.json).toMatchObject({ currency: "PEN", rate_per_usd: "3.123456789012345678" });
    expect(Date.parse(precise.json.updated_at)).toBeGreaterThan(Date.now() - 60_000);
    const numeric = await platform.admin("PUT", "/admin/fx-rates/GHS", { rate_per_usd: 11.5 });
    expect(numeric.json).toMatchObject({ currency: "GHS", rate_per_usd: "11.5" });
    const list = await platform.admin("GET", "/admin/fx-rates");
    expect(list.status).toBe(200);
    expect(
      list.json.fx_rates.map((r: { currency: string; rate_per_usd: string }) => [r.currency, r.rate_per_usd]),
    ).toEqual([
      ["BRL", "5.4"],
      ["GHS", "11.5"],
      ["KES", "129.25"],
      ["PEN", "3.123456789012345678"],
      ["VND", "26300"],
    ]);
  });

  it("deletes a rate, after which previews omit that currency and refuse it as a source", async () => {
    const partner = await platform.createPartner({ supported_currencies: ["USD", "GHS"] });
    await platform.admin("PUT", "/admin/fx-rates/GHS", { rate_per_usd: "11" });
    const before = await platform.partner(partner, "POST", "/previewQuotations", {
      amount: 10,
      currency: "USD",
    });
    expect(currenciesOf(before)).toEqual(["USD", "GHS"]);
    expect(before.json.quotations[1].amount).toBe(110);

    const deleted = await platform.admin("DELETE", "/admin/fx-rates/ghs");
    expect(deleted.status).toBe(204);
    const after = await platform.partner(partner, "POST", "/previewQuotations", {
      amount: 10,
      currency: "USD",
    });
    expect(currenciesOf(after)).toEqual(["USD"]);
    const asSource = await platform.partner(partner, "POST", "/previewQuotations", {
      amount: 10,
      currency: "GHS",
    });
    expect(asSource.status).toBe(400);
    expect(asSource.json.code).toBe("INVALID_CURRENCY");

    const again = await platform.admin("DELETE", "/admin/fx-rates/GHS");
    expect(again.status).toBe(404);
    expect(again.json.code).toBe("FX_RATE_NOT_FOUND");
  });

  it("changes previews at once when a rate changes", async () => {
    const partner = await platform.createPartner({ supported_currencies: ["BRL"] });
    const at = async () =>
      (await platform.partner(partner, "POST", "/previewQuotations", { amount: 100, currency: "USD" })).json
        .quotations[0].amount;
    expect(await at()).toBe(540);
    await platform.admin("PUT", "/admin/fx-rates/BRL", { rate_per_usd: "5.5" });
    expect(await at()).toBe(550);
    await platform.admin("PUT", "/admin/fx-rates/BRL", { rate_per_usd: "5.4" });
  });

  it.each([
    ["BRL", {}, "MISSING_REQUIRED_FIELD", "rate_per_usd"],
    ["BRL", { rate_per_usd: "" }, "MISSING_REQUIRED_FIELD", "rate_per_usd"],
    ["BRL", { rate_per_usd: "0" }, "INVALID_FIELD", "rate_per_usd"],
    ["BRL", { rate_per_usd: -2 }, "INVALID_FIELD", "rate_per_usd"],
    ["BRL", { rate_per_usd: "abc" }, "INVALID_FIELD", "rate_per_usd"],
    ["BRL", { rate_per_usd: true }, "INVALID_FIELD", "rate_per_usd"],
    ["BRL", { rate_per_usd: "100000000000000000000" }, "INVALID_FIELD", "rate_per_usd"],
    ["XYZ", { rate_per_usd: "1" }, "INVALID_FIELD", "currency"],
    ["XAU", { rate_per_usd: "1" }, "INVALID_FIELD", "currency"],
    ["USD", { rate_per_usd: "1" }, "INVALID_FIELD", "currency"],
  ])("refuses PUT /admin/fx-rates/%s %j with %s at %s", async (currency, body, code, field) => {
    const res = await platform.admin("PUT", `/admin/fx-rates/${currency}`, body);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ code, field });
  });
});

describe("corridors", () => {
  it("sets a corridor with limits given as strings or numbers and answers strings at full precision", async () => {
    const res = await platform.admin("PUT", "/admin/corridors/gh", {
      currency: "ghs",
      min_amount: 10,
      max_amount: "100000.12",
      enabled: true,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({
      country_code: "GH",
      currency: "GHS",
      min_amount: "10",
      max_amount: "100000.12",
      enabled: true,
    });
    const list = await platform.admin("GET", "/admin/corridors");
    expect(list.json.corridors.map((c: { country_code: string }) => c.country_code)).toEqual([
      "BR",
      "GH",
      "KE",
      "VN",
    ]);
    expect(list.json.corridors[0]).toEqual({
      country_code: "BR",
      currency: "BRL",
      min_amount: "1",
      max_amount: "50000",
      enabled: true,
    });
  });

  it("applies new limits and the enabled flag to previews at once", async () => {
    const partner = await platform.createPartner({ supported_currencies: ["USD", "KES"] });
    const targets = async () =>
      currenciesOf(
        await platform.partner(partner, "POST", "/previewQuotations", { amount: 100, currency: "USD" }),
      );
    expect(await targets()).toEqual(["USD", "KES"]);
    await platform.admin("PUT", "/admin/corridors/KE", {
      currency: "KES",
      min_amount: "20000",
      max_amount: "250000",
    });
    expect(await targets()).toEqual(["USD"]);
    await platform.admin("PUT", "/admin/corridors/KE", {
      currency: "KES",
      min_amount: "10",
      max_amount: "250000",
      enabled: false,
    });
    expect(await targets()).toEqual(["USD"]);
    const restored = await platform.admin("PUT", "/admin/corridors/KE", {
      currency: "KES",
      min_amount: "10",
      max_amount: "250000",
      enabled: true,
    });
    expect(restored.json.enabled).toBe(true);
    expect(await targets()).toEqual(["USD", "KES"]);
  });

  it.each([
    ["BR", { min_amount: "1", max_amount: "2" }, "MISSING_REQUIRED_FIELD", "currency"],
    ["BR", { currency: "BRL", max_amount: "2" }, "MISSING_REQUIRED_FIELD", "min_amount"],
    ["BR", { currency: "BRL", min_amount: "1" }, "MISSING_REQUIRED_FIELD", "max_amount"],
    ["BR", { currency: "BRL", min_amount: "5", max_amount: "2" }, "INVALID_FIELD", "max_amount"],
    ["BR", { currency: "BRL", min_amount: "-1", max_amount: "2" }, "INVALID_FIELD", "min_amount"],
    ["BR", { currency: "BRL", min_amount: "x", max_amount: "2" }, "INVALID_FIELD", "min_amount"],
    ["BR", { currency: "XXX", min_amount: "1", max_amount: "2" }, "INVALID_FIELD", "currency"],
    ["BR", { currency: "BRL", min_amount: "1", max_amount: "2", enabled: "yes" }, "INVALID_FIELD", "enabled"],
    ["BRA", { currency: "BRL", min_amount: "1", max_amount: "2" }, "INVALID_FIELD", "country_code"],
  ])("refuses PUT /admin/corridors/%s %j with %s at %s", async (country, body, code, field) => {
    const res = await platform.admin("PUT", `/admin/corridors/${country}`, body);
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ code, field });
  });
});

describe("partner pricing through /admin/partners", () => {
  it("stores supported currencies and fees on creation and applies them to previews", async () => {
    const created = await platform.admin("POST", "/admin/partners", {
      name: "Priced partner",
      supported_currencies: ["usd", "brl"],
      fees: { percent: "2.5", fixed_usd: 0.25 },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toMatchObject({
      supported_currencies: ["USD", "BRL"],
      fees: { percent: "2.5", fixed_usd: "0.25" },
    });
    const app = await platform.admin("POST", `/admin/partners/${created.json.partner_id}/apps`, {});
    const creds = { clientId: app.json.client_id, clientSecret: app.json.client_secret };
    const res = await platform.partner(creds, "POST", "/previewQuotations", { amount: 200, currency: "USD" });
    expect(res.json.quotations).toMatchObject([
      { currency: "USD", amount_usd: 200, percentage_fee: 5, fixed_fee: 0.25, fee: 5.25 },
      { currency: "BRL", amount: 1080, amount_usd: 200, fee: 5.25 },
    ]);
    expect(res.text).toContain('"fee":5.25,"percentage_fee":5.00,"fixed_fee":0.25');
  });

  it("PATCH changes only the fields given; an empty list clears the currencies back to USD only", async () => {
    const partner = await platform.createPartner({
      supported_currencies: ["BRL", "KES"],
      fees: { percent: "1.5", fixed_usd: "0.30" },
    });
    const path = `/admin/partners/${partner.partnerId}`;
    const percentOnly = await platform.admin("PATCH", path, { fees: { percent: "3" } });
    expect(percentOnly.status, percentOnly.text).toBe(200);
    expect(percentOnly.json).toMatchObject({
      supported_currencies: ["BRL", "KES"],
      fees: { percent: "3", fixed_usd: "0.3" },
    });
    const renamed = await platform.admin("PATCH", path, { name: "Renamed" });
    expect(renamed.json).toMatchObject({
      name: "Renamed",
      supported_currencies: ["BRL", "KES"],
      fees: { percent: "3" },
    });
    const cleared = await platform.admin("PATCH", path, { supported_currencies: [] });
    expect(cleared.json.supported_currencies).toEqual([]);
    const res = await platform.partner(partner, "POST", "/previewQuotations", {
      amount: 100,
      currency: "USD",
    });
    expect(res.json.quotations).toMatchObject([
      { currency: "USD", percentage_fee: 3, fixed_fee: 0.3, fee: 3.3 },
    ]);
    expect((await platform.admin("GET", path)).json).toMatchObject({
      fees: { percent: "3", fixed_usd: "0.3" },
    });
  });

  it("PATCH of only fees or only currencies moves updated_at, in the answer and in later reads", async () => {
    const partner = await platform.createPartner();
    const path = `/admin/partners/${partner.partnerId}`;
    let last = (await platform.admin("GET", path)).json.updated_at as string;
    for (const change of [{ fees: { percent: "2" } }, { supported_currencies: ["BRL"] }]) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const patched = await platform.admin("PATCH", path, change);
      expect(patched.status, patched.text).toBe(200);
      expect(Date.parse(patched.json.updated_at), JSON.stringify(change)).toBeGreaterThan(Date.parse(last));
      expect((await platform.admin("GET", path)).json.updated_at).toBe(patched.json.updated_at);
      last = patched.json.updated_at;
    }
  });

  it.each([
    [{ supported_currencies: ["BRL", "XYZ"] }, "supported_currencies"],
    [{ supported_currencies: ["XAU"] }, "supported_currencies"],
    [{ supported_currencies: "BRL" }, "supported_currencies"],
    [{ fees: { percent: "100", fixed_usd: "0" } }, "fees.percent"],
    [{ fees: { percent: "-1" } }, "fees.percent"],
    [{ fees: { fixed_usd: "-0.01" } }, "fees.fixed_usd"],
  ])("refuses %j with INVALID_FIELD at %s, on creation and on PATCH", async (fields, field) => {
    const created = await platform.admin("POST", "/admin/partners", { name: "Bad pricing", ...fields });
    expect(created.status, created.text).toBe(400);
    expect(created.json).toMatchObject({ code: "INVALID_FIELD", field });
    const partner = await platform.createPartner();
    const patched = await platform.admin("PATCH", `/admin/partners/${partner.partnerId}`, fields);
    expect(patched.status, patched.text).toBe(400);
    expect(patched.json).toMatchObject({ code: "INVALID_FIELD", field });
  });
});
