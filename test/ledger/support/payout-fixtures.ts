/**
 * Fixtures for payout tests through the real gateway: an NG corridor at 1500 NGN per USD, a partner with
 * 1.5 % + 0.30 USD fees and a credited balance, and PENDING transactions created straight through the
 * ledger client (what lookupPaymentCode does).
 */
import { create } from "@bufbuild/protobuf";
import { DestinationSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import type { ApiResponse, Credentials, TestPlatform } from "../../support/test-platform.js";

export const NG_RATE = "1500";

export async function setUpCorridor(platform: TestPlatform): Promise<void> {
  const rate = await platform.admin("PUT", "/admin/fx-rates/NGN", { rate_per_usd: NG_RATE });
  if (rate.status !== 200) throw new Error(`fx rate: ${rate.status} ${rate.text}`);
  const corridor = await platform.admin("PUT", "/admin/corridors/NG", {
    currency: "NGN",
    min_amount: "100",
    max_amount: "100000000",
    enabled: true,
  });
  if (corridor.status !== 200) throw new Error(`corridor: ${corridor.status} ${corridor.text}`);
}

export type Partner = { partnerId: string } & Credentials;

export async function fundedPartner(platform: TestPlatform, balanceUsd: string): Promise<Partner> {
  const partner = await platform.createPartner({
    supported_currencies: ["NGN"],
    fees: { percent: "1.5", fixed_usd: "0.30" },
  });
  if (balanceUsd !== "0") {
    const credit = await platform.admin(
      "POST",
      `/admin/partners/${partner.partnerId}/balance/credits`,
      { amount_usd: balanceUsd, reference: "test funding" },
      { "X-Idempotency-Key": `fund-${partner.partnerId}` },
    );
    if (credit.status !== 201) throw new Error(`credit: ${credit.status} ${credit.text}`);
  }
  return partner;
}

export async function pendingTransaction(
  platform: TestPlatform,
  partnerId: string,
  opts: { paymentDestination?: string; partnerTransactionId?: string } = {},
): Promise<string> {
  const account = opts.paymentDestination ?? "0123456789";
  const res = await platform.runtime.gateway.deps.clients.ledger.createTransaction({
    partnerId,
    customerId: "cus_test",
    partnerTransactionId: opts.partnerTransactionId ?? "",
    destination: create(DestinationSchema, {
      countryCode: "NG",
      currency: "NGN",
      paymentMethod: "bank_transfer",
      destinationType: "NUBAN",
      paymentDestination: account,
      paymentDestinationCode: "058",
      institutionName: "Guaranty Trust Bank",
      recipient: { account_no: account, bank_no: "058", name_first: "Ada", name_last: "Obi" },
      sender: { name_first: "Sam", name_last: "Sender", country: "US" },
      source: "lookup",
    }),
  });
  return res.transaction!.txId;
}

export async function quoted(
  platform: TestPlatform,
  partner: Partner,
  txId: string,
  amount = 15000,
): Promise<ApiResponse> {
  const res = await platform.partner(partner, "POST", "/getQuotation", { tx_id: txId, amount });
  if (res.status !== 200) throw new Error(`getQuotation: ${res.status} ${res.text}`);
  return res;
}

export function executePayout(
  platform: TestPlatform,
  partner: Partner,
  txId: string,
  key: string | undefined,
  extra: { query?: string; body?: unknown } = {},
): Promise<ApiResponse> {
  return platform.partner(
    partner,
    "POST",
    `/executePayout${extra.query ?? ""}`,
    extra.body ?? { tx_id: txId },
    key === undefined ? {} : { "X-Idempotency-Key": key },
  );
}

export async function balance(platform: TestPlatform, partnerId: string): Promise<string> {
  const res = await platform.admin("GET", `/admin/partners/${partnerId}/balance`);
  if (res.status !== 200) throw new Error(`balance: ${res.status} ${res.text}`);
  return res.json.balance_usd;
}
