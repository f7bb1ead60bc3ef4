import { create } from "@bufbuild/protobuf";
import { Dec } from "@payouts/platform/money/decimal";
import { stringifyJson } from "@payouts/platform/money/json-decimal";
import { DestinationSchema, QuoteSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import { describe, expect, it } from "vitest";
import { renderLookupResult } from "./render-lookup-result.js";

const PIX = create(DestinationSchema, {
  countryCode: "BR",
  currency: "BRL",
  merchant: "",
  recipient: { account_no: "52998224725", name: "Ana Souza" },
  sender: { name_first: "Kofi" },
});

const PAYBILL = create(DestinationSchema, {
  countryCode: "KE",
  currency: "KES",
  isDynamic: true,
  isBusiness: true,
  merchant: "SHOP",
  merchantId: "444174",
  merchantName: "SHOP",
  paymentType: "paybill",
  merchantInfo: { merchantId: "444174", displayName: "SHOP", countryCode: "KE", paymentType: "paybill" },
});

const QUOTE = create(QuoteSchema, {
  amountUsd: "27.777777777777777778",
  percentageFee: "0.416666666666666667",
  fixedFee: "0.3",
  fee: "0.716666666666666667",
});

const render = (overrides: Partial<Parameters<typeof renderLookupResult>[0]>) =>
  stringifyJson(
    renderLookupResult({
      txId: "tx_1",
      destination: PIX,
      amount: undefined,
      quote: undefined,
      partnerTransactionId: "",
      dp: 2,
      ...overrides,
    }),
  );

describe("renderLookupResult", () => {
  it("without an amount: amount 0 at minor units, the amount missing, no pricing or merchant fields", () => {
    expect(render({})).toBe(
      '{"is_dynamic":false,"is_business":false,"amount":0.00,"merchant":"","country":"BR","tx_id":"tx_1",' +
        '"currency":"BRL","partner_transaction_id":"","missing_fields":[{"field":"amount","type":"numeric",' +
        '"label":"Amount"}],"suggested_values":{},"sender":{"name_first":"Kofi"},' +
        '"recipient":{"account_no":"52998224725","name":"Ana Souza"}}',
    );
  });

  it.each([
    [2, '"amount_usd":27.78,"fee":0.72,"percentage_fee":0.42,"fixed_fee":0.30'],
    [0, '"amount_usd":28,"fee":1,"percentage_fee":0,"fixed_fee":0'],
    [5, '"amount_usd":27.77778,"fee":0.71667,"percentage_fee":0.41667,"fixed_fee":0.30000'],
  ])("with an amount and dp %i: USD figures at dp, local amount at minor units", (dp, pricing) => {
    const text = render({ amount: new Dec("150"), quote: QUOTE, dp, partnerTransactionId: "order-1" });
    expect(text).toContain(`"amount":150.00,`);
    expect(text).toContain(`"partner_transaction_id":"order-1",${pricing},"missing_fields":[]`);
  });

  it("renders merchant fields of a paybill and asks for a missing bill reference", () => {
    const result = JSON.parse(render({ destination: PAYBILL }));
    expect(result).toMatchObject({
      is_dynamic: true,
      is_business: true,
      merchant_id: "444174",
      merchant_name: "SHOP",
      payment_type: "paybill",
      merchant_info: {
        merchant_id: "444174",
        display_name: "SHOP",
        country_code: "KE",
        payment_type: "paybill",
      },
    });
    expect(result.merchant_info).not.toHaveProperty("account_reference");
    expect(result.missing_fields.map((m: { field: string }) => m.field)).toEqual([
      "amount",
      "account_reference",
    ]);
  });

  it("does not ask for the reference of a paybill that has one", () => {
    const withReference = create(DestinationSchema, { ...PAYBILL, accountReference: "INV1" });
    const result = JSON.parse(render({ destination: withReference, amount: new Dec(5), quote: QUOTE }));
    expect(result.missing_fields).toEqual([]);
  });

  it("renders a zero-decimal currency without decimals", () => {
    const vnd = create(DestinationSchema, { ...PIX, countryCode: "VN", currency: "VND" });
    expect(render({ destination: vnd, amount: new Dec("263000.4"), quote: QUOTE })).toContain(
      '"amount":263000,',
    );
  });
});
