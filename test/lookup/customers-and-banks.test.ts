import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credentials, TestPlatform } from "../support/test-platform.js";
import { startTestPlatform } from "../support/test-platform.js";
import { errorOf } from "./lookup-fixtures.js";

/** POST /customers, GET /customers/{id} and GET /listBanks through the real gateway on PostgreSQL. */

let platform: TestPlatform;
let alice: Credentials;
let bob: Credentials;

beforeAll(async () => {
  platform = await startTestPlatform();
  alice = await platform.createPartner({ name: "Alice Remit" });
  bob = await platform.createPartner({ name: "Bob Pay" });
});

afterAll(async () => {
  await platform?.close();
});

describe("customers", () => {
  it("registers a sender (201) and reads it back", async () => {
    const created = await platform.partner(alice, "POST", "/customers", {
      name_first: "Kofi",
      name_last: "Mensah",
      country: "gh",
      ic_type: "ghana_card",
      ic_number: "GHA-123456789-0",
      phone: "+233 24 123 4567",
      email: "Kofi@Example.com",
      external_reference: "crm-1001",
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json).toEqual({
      customer_id: expect.stringMatching(/^cus_[0-9a-z]{26}$/),
      name_first: "Kofi",
      name_last: "Mensah",
      country: "GH",
      ic_type: "GHANA_CARD",
      ic_number: "GHA-123456789-0",
      phone: "+233241234567",
      email: "kofi@example.com",
      external_reference: "crm-1001",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const read = await platform.partner(alice, "GET", `/customers/${created.json.customer_id}`);
    expect(read.status).toBe(200);
    expect(read.json).toEqual(created.json);
  });

  it("leaves optional fields out when they were not given", async () => {
    const created = await platform.partner(alice, "POST", "/customers", {
      name_first: "Lucía",
      name_last: "Pérez",
      country: "AR",
    });
    expect(created.status, created.text).toBe(201);
    expect(Object.keys(created.json).sort()).toEqual([
      "country",
      "created_at",
      "customer_id",
      "name_first",
      "name_last",
    ]);
  });

  it("answers another partner's customer as not found", async () => {
    const created = await platform.partner(alice, "POST", "/customers", {
      name_first: "Ana",
      name_last: "Souza",
      country: "BR",
    });
    const res = await platform.partner(bob, "GET", `/customers/${created.json.customer_id}`);
    expect(errorOf(res)).toEqual({ status: 404, code: "CUSTOMER_NOT_FOUND", field: "customer_id" });
    const unknown = await platform.partner(alice, "GET", "/customers/cus_nobody");
    expect(errorOf(unknown)).toEqual({ status: 404, code: "CUSTOMER_NOT_FOUND", field: "customer_id" });
  });

  it.each([
    ["no name_first", { name_first: undefined }, "MISSING_REQUIRED_FIELD", "name_first"],
    ["a name_last of 101 characters", { name_last: "x".repeat(101) }, "INVALID_FIELD", "name_last"],
    ["a numeric name_first", { name_first: 7 }, "INVALID_FIELD", "name_first"],
    ["no country", { country: undefined }, "MISSING_REQUIRED_FIELD", "country"],
    ["a country that is not ISO", { country: "XX" }, "INVALID_FIELD", "country"],
    ["an unknown ic_type", { ic_type: "LIBRARY_CARD", ic_number: "123" }, "INVALID_FIELD", "ic_type"],
    ["an ic_number without ic_type", { ic_number: "123" }, "MISSING_REQUIRED_FIELD", "ic_type"],
    [
      "a CPF with wrong check digits",
      { ic_type: "CPF", ic_number: "529.982.247-26" },
      "INVALID_FIELD",
      "ic_number",
    ],
    ["a local phone number", { phone: "0241234567" }, "INVALID_FIELD", "phone"],
    ["an e-mail without a domain", { email: "kofi@" }, "INVALID_FIELD", "email"],
    ["a body that is not an object", "[]", "INVALID_FIELD", undefined],
  ] as const)("refuses %s", async (_name, change, code, field) => {
    const body =
      typeof change === "string"
        ? change
        : { name_first: "Kofi", name_last: "Mensah", country: "GH", ...change };
    const res = await platform.partner(alice, "POST", "/customers", body);
    expect(errorOf(res), res.text).toEqual({ status: 400, code, field });
  });

  it("requires credentials", async () => {
    const res = await platform.partner(undefined, "GET", "/customers/cus_x");
    expect(res.status).toBe(401);
  });
});

describe("GET /listBanks", () => {
  it.each([
    ["NG", "000013", "Guaranty Trust Bank", "bank"],
    ["NG", "100004", "OPay", "mobile_money"],
    ["GH", "MTN", undefined, "mobile_money"],
    ["GH", "13", "Ecobank Ghana", "bank"],
    ["BO", "1", undefined, "bank"],
    ["ZM", "ZNCOZMLU", undefined, "bank"],
    ["VN", "970436", "Vietcombank", "bank"],
    ["PE", "YAPE", undefined, "mobile_money"],
    ["KE", "PAYBILL", undefined, "mobile_money"],
    ["br", "PIX", undefined, "bank"],
  ] as const)("%s lists %s", async (country, code, name, type) => {
    const res = await platform.partner(alice, "GET", `/listBanks?country_code=${country}`);
    expect(res.status, res.text).toBe(200);
    const bank = res.json.banks.find((b: { code: string }) => b.code === code);
    expect(bank).toMatchObject({ code, type, ...(name === undefined ? {} : { name }) });
    for (const entry of res.json.banks) expect(Object.keys(entry).sort()).toEqual(["code", "name", "type"]);
  });

  it("answers AR with an empty list: CBUs, CVUs and aliases carry their own routing", async () => {
    const res = await platform.partner(alice, "GET", "/listBanks?country_code=AR");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ banks: [] });
  });

  it.each([
    ["", "MISSING_REQUIRED_FIELD"],
    ["?country_code=", "MISSING_REQUIRED_FIELD"],
    ["?country_code=NGA", "INVALID_FIELD"],
    ["?country_code=US", "UNSUPPORTED_COUNTRY"],
    ["?country_code=NG&country_code=GH", "INVALID_FIELD"],
  ])("refuses %j with %s", async (query, code) => {
    const res = await platform.partner(alice, "GET", `/listBanks${query}`);
    expect(errorOf(res)).toEqual({ status: 400, code, field: "country_code" });
  });
});
