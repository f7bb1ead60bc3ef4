import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupPartner, type LookupPartner, putPricingData } from "../lookup/lookup-fixtures.js";
import type { ApiResponse } from "../support/test-platform.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/**
 * A field the documents declare non-nullable is refused when sent as `null`, and an optional one whose
 * schema allows no empty string (pattern, enum, format, minLength) is refused when sent as "": 400 with the
 * stable error body naming the field, instead of being read as absent.
 */
let platform: TestPlatform;
let partner: LookupPartner;

beforeAll(async () => {
  platform = await startTestPlatform();
  await putPricingData(platform);
  partner = await createLookupPartner(platform);
});
afterAll(() => platform?.close());

function expectRefused(res: ApiResponse, field: string) {
  expect(res.status, res.text).toBe(400);
  expect(res.json).toMatchObject({ code: "INVALID_FIELD", field });
  expect(res.json.request_id).toBe(res.headers.get("x-request-id"));
}

const ANA = { name_first: "Ana", name_last: "Silva", country: "BR" };

describe("null where the document says non-nullable", () => {
  it.each([
    ["external_reference", { ...ANA, external_reference: null }],
    ["email", { ...ANA, email: null }],
    ["phone", { ...ANA, phone: null }],
  ])("POST /customers refuses %s: null", async (field, body) => {
    expectRefused(await platform.partner(partner, "POST", "/customers", body), field);
  });

  it("POST /webhookConfigs refuses basic_auth: null", async () => {
    const res = await platform.partner(partner, "POST", "/webhookConfigs", {
      url: "https://partner.example.com/hooks",
      basic_auth: null,
    });
    expectRefused(res, "basic_auth");
  });

  it.each([
    ["name", { name: null }],
    ["fees", { fees: null }],
    ["supported_currencies", { supported_currencies: null }],
    ["fees.percent", { fees: { percent: null } }],
  ])("PATCH /admin/partners/{id} refuses %s: null", async (field, body) => {
    expectRefused(await platform.admin("PATCH", `/admin/partners/${partner.partnerId}`, body), field);
  });

  it("PUT /admin/corridors/{country} refuses enabled: null", async () => {
    const res = await platform.admin("PUT", "/admin/corridors/BR", {
      currency: "BRL",
      min_amount: "1",
      max_amount: "50000",
      enabled: null,
    });
    expectRefused(res, "enabled");
  });

  it("POST /admin/partners/{id}/apps refuses preview_rate_limit_per_minute: null", async () => {
    const res = await platform.admin("POST", `/admin/partners/${partner.partnerId}/apps`, {
      preview_rate_limit_per_minute: null,
    });
    expectRefused(res, "preview_rate_limit_per_minute");
  });
});

describe('"" where the schema allows no empty string', () => {
  it.each([
    ["external_reference", { ...ANA, external_reference: "" }],
    ["email", { ...ANA, email: "" }],
    ["ic_type", { ...ANA, ic_type: "" }],
    ["phone", { ...ANA, phone: "" }],
  ])('POST /customers refuses %s: ""', async (field, body) => {
    expectRefused(await platform.partner(partner, "POST", "/customers", body), field);
  });

  it("still creates a customer without the optional fields", async () => {
    const res = await platform.partner(partner, "POST", "/customers", ANA);
    expect(res.status, res.text).toBe(201);
  });
});

describe("a JSON null body, and empty query parameters the document does not allow", () => {
  it.each([
    ["PATCH", () => `/admin/partners/${partner.partnerId}`],
    ["POST", () => `/admin/partners/${partner.partnerId}/apps`],
  ])("%s refuses the body null as not an object", async (method, path) => {
    const res = await platform.admin(method, path(), "null");
    expect(res.status, res.text).toBe(400);
    expect(res.json).toMatchObject({ code: "INVALID_FIELD", message: "request body must be a JSON object" });
  });

  it.each([
    ["/admin/transactions?tx_id=", "tx_id"],
    ["/admin/webhook-configs?partner_id=", "partner_id"],
  ])("admin GET %s is refused naming %s", async (path, field) => {
    expectRefused(await platform.admin("GET", path), field);
  });

  it.each([
    ["/listTransactions?created_to=", "created_to"],
    ["/listTransactions?status=", "status"],
    ["/balance?dp=", "dp"],
  ])("partner GET %s is refused naming %s", async (path, field) => {
    expectRefused(await platform.partner(partner, "GET", path), field);
  });
});
