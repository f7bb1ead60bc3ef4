import { describe, expect, it } from "vitest";
import { listBanks } from "./banks.js";
import { CORRIDORS } from "./corridors.js";

describe("listBanks", () => {
  it("is undefined for a country that is not a corridor", () => {
    expect(listBanks("US")).toBeUndefined();
    expect(listBanks("")).toBeUndefined();
  });

  it("answers for every corridor, with unique codes and only code, name and type", () => {
    for (const { country_code } of CORRIDORS) {
      const banks = listBanks(country_code) ?? [];
      expect(new Set(banks.map((bank) => bank.code)).size, country_code).toBe(banks.length);
      for (const bank of banks) {
        expect(Object.keys(bank).sort()).toEqual(["code", "name", "type"]);
        expect(["bank", "mobile_money"]).toContain(bank.type);
      }
    }
  });

  it("lists nothing for AR, whose keys carry their own routing", () => {
    expect(listBanks("AR")).toEqual([]);
  });

  it.each([
    ["BR", [{ code: "PIX", name: "Pix", type: "bank" }]],
    ["CO", [{ code: "BREB", name: "Bre-B", type: "bank" }]],
    [
      "PE",
      [
        { code: "YAPE", name: "Yape", type: "mobile_money" },
        { code: "PLIN", name: "Plin", type: "mobile_money" },
      ],
    ],
    [
      "ke",
      [
        { code: "TILL", name: "Till number", type: "mobile_money" },
        { code: "PAYBILL", name: "Paybill number", type: "mobile_money" },
      ],
    ],
  ])("lists the rails of %s", (country, expected) => {
    expect(listBanks(country)).toEqual(expected);
  });

  it.each([
    ["NG", { code: "000013", name: "Guaranty Trust Bank", type: "bank" }],
    ["NG", { code: "100004", name: "OPay", type: "mobile_money" }],
    ["GH", { code: "28", name: "Access Bank Ghana", type: "bank" }],
    ["GH", { code: "MTN", name: "MTN Mobile Money", type: "mobile_money" }],
    ["ZM", { code: "ZNCOZMLU", name: "Zambia National Commercial Bank (Zanaco)", type: "bank" }],
    ["BO", { code: "1", name: "Banco Mercantil Santa Cruz", type: "bank" }],
    ["VN", { code: "970436", name: "Vietcombank", type: "bank" }],
  ])("%s includes %j", (country, bank) => {
    expect(listBanks(country)).toContainEqual(bank);
  });

  it("lists no mobile-money network for ZM", () => {
    expect(listBanks("ZM")?.every((bank) => bank.type === "bank")).toBe(true);
  });

  it("returns copies that callers may change without touching the tables", () => {
    const first = listBanks("NG") ?? [];
    first.pop();
    expect(listBanks("NG")).toHaveLength(first.length + 1);
  });
});
