/**
 * Attack: a foothold holding the gateway's service credential calls the ledger's CreateTransaction with a
 * price of its own choosing (a quote of 0.01 USD for 50,000 BRL), then executes the payout: the partner
 * would be debited 0.01 USD for a payout worth thousands. The request message no longer has a quote (its
 * field number is reserved), so the attacker writes field 8 on the wire by hand, as a client built from
 * the old schema would; the ledger must price the amount itself and debit pricing's price.
 */
import { create, toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Dec } from "@payouts/platform/money/decimal";
import { QuoteSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import { CreateTransactionRequestSchema } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createLookupPartner,
  type LookupPartner,
  lookupPaymentCode,
  putPricingData,
} from "../lookup/lookup-fixtures.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

let platform: TestPlatform;
let partner: LookupPartner;

beforeAll(async () => {
  platform = await startTestPlatform();
  await putPricingData(platform);
  partner = await createLookupPartner(platform, { fees: { percent: "1.5", fixed_usd: "0.30" } });
  const credit = await platform.admin(
    "POST",
    `/admin/partners/${partner.partnerId}/balance/credits`,
    { amount_usd: "20000", reference: "chosen-price funding" },
    { "X-Idempotency-Key": `fund-${partner.partnerId}` },
  );
  expect(credit.status, credit.text).toBe(201);
});

afterAll(async () => {
  await platform?.close();
});

/** The quote the attacker chooses: 0.01 USD (no fees) for `amount` BRL, consistent in its own sums. */
function chosenQuote(amount: string) {
  return create(QuoteSchema, {
    quoteId: "qt_chosen_by_caller",
    amount,
    currency: "BRL",
    exchangeRate: new Dec(amount).div("0.01").toFixed(),
    amountUsd: "0.01",
    percentageFee: "0",
    fixedFee: "0",
    fee: "0",
    totalUsd: "0.01",
    expiresAt: timestampFromDate(new Date(Date.now() + 30 * 60_000)),
  });
}

async function balance(): Promise<Dec> {
  const res = await platform.admin("GET", `/admin/partners/${partner.partnerId}/balance`);
  expect(res.status, res.text).toBe(200);
  return new Dec(res.json.balance_usd);
}

describe("a caller-chosen price on CreateTransaction", () => {
  it("is ignored: the ledger stores and debits pricing's price for the amount", async () => {
    // A genuine destination of the partner, as the lookup service resolved it.
    const looked = await lookupPaymentCode(platform, partner, {
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "52998224725",
      payment_destination_code: "PIX",
    });
    expect(looked.status, looked.text).toBe(200);
    const ledger = platform.runtime.gateway.deps.clients.ledger;
    const genuine = await ledger.getTransaction({ partnerId: partner.partnerId, txId: looked.json.tx_id });
    const destination = genuine.transaction!.destination!;

    const amount = "50000";
    const request = create(CreateTransactionRequestSchema, {
      partnerId: partner.partnerId,
      customerId: partner.customerId,
      destination,
      amount,
    });
    // Field 8 (the quote) written on the wire, as the old schema had it.
    const quoteBytes = toBinary(QuoteSchema, chosenQuote(amount));
    request.$unknown = [
      {
        no: 8,
        wireType: WireType.LengthDelimited,
        data: new BinaryWriter().bytes(quoteBytes).finish(),
      },
    ];
    // The gateway's own client: the `gateway` service identity the foothold holds.
    const created = await ledger.createTransaction(request);
    const txId = created.transaction!.txId;

    // Pricing's price: 50,000 BRL at 5.4 BRL per USD, 1.5 % + 0.30 USD.
    const priced = new Dec(amount).div("5.4");
    const stored = (await ledger.getTransaction({ partnerId: partner.partnerId, txId })).transaction!;
    expect(stored.quote?.quoteId).not.toBe("qt_chosen_by_caller");
    expect(new Dec(stored.quote!.amountUsd).toFixed(2)).toBe(priced.toFixed(2));
    expect(new Dec(stored.quote!.amountUsd).gt("1000")).toBe(true);

    const before = await balance();
    const executed = await platform.partner(
      partner,
      "POST",
      "/executePayout",
      { tx_id: txId },
      { "X-Idempotency-Key": `chosen-price-${txId}` },
    );
    expect(executed.status, executed.text).toBe(200);
    const debited = before.minus(await balance());
    expect(debited.eq(stored.quote!.totalUsd)).toBe(true);
    expect(debited.gt("1000")).toBe(true);
  });

  it("still relays pricing's refusal of the amount, writing nothing", async () => {
    const ledger = platform.runtime.gateway.deps.clients.ledger;
    const before = (await ledger.listTransactions({ partnerId: partner.partnerId, limit: 100 })).transactions
      .length;
    const looked = await lookupPaymentCode(platform, partner, {
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "52998224725",
      payment_destination_code: "PIX",
      amount: 60000,
    });
    expect(looked.status, looked.text).toBe(400);
    expect(looked.json).toMatchObject({ code: "AMOUNT_OUT_OF_RANGE", field: "amount" });
    const after = (await ledger.listTransactions({ partnerId: partner.partnerId, limit: 100 })).transactions
      .length;
    expect(after).toBe(before);
  });
});
