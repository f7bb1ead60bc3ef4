/**
 * One credential approving a two-approval batch alone. A batch created with `required_approvals: 2` is
 * funded only by two different credentials. An insider holding one app's secret approves, then approves
 * again — plainly, and naming another approver in the body and in headers — hoping the second call counts
 * as the second person. The approver is the credential that authenticated the request, nothing the request
 * says: every second attempt is refused with 409 BATCH_ALREADY_APPROVED_BY, the batch stays
 * AWAITING_APPROVAL and the balance does not move. Only another app's approval funds it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  balanceOf,
  type FundedPartner,
  fundedPartner,
  setUpBrazil,
} from "../client/support/client-fixtures.js";
import { type Credentials, startTestPlatform, type TestPlatform } from "../support/test-platform.js";

let platform: TestPlatform;
let partner: FundedPartner;
let secondApp: Credentials;
let batchId = "";

beforeAll(async () => {
  platform = await startTestPlatform({ env: { QUOTE_TTL_MS: "600000" } });
  await setUpBrazil(platform);
  partner = await fundedPartner(platform, "500");
  const app = await platform.admin("POST", `/admin/partners/${partner.partnerId}/apps`, {});
  expect(app.status, app.text).toBe(201);
  secondApp = { clientId: app.json.client_id, clientSecret: app.json.client_secret };
  const customer = await platform.partner(partner, "POST", "/customers", {
    name_first: "Ana",
    name_last: "Souza",
    country: "BR",
    ic_type: "CPF",
    ic_number: "529.982.247-25",
  });
  expect(customer.status, customer.text).toBe(201);
  const created = await platform.partner(
    partner,
    "POST",
    "/batches",
    {
      required_approvals: 2,
      items: [
        {
          item_ref: "only",
          amount: 50,
          partner_transaction_id: "self-approval-1",
          customer_id: customer.json.customer_id,
          country_code: "BR",
          payment_method: "payment_key",
          payment_destination: "52998224725",
          payment_destination_code: "PIX",
        },
      ],
    },
    { "x-idempotency-key": "self-approval" },
  );
  expect(created.status, created.text).toBe(202);
  batchId = created.json.batch_id;
  for (let tries = 0; ; tries++) {
    const batch = await platform.partner(partner, "GET", `/batches/${batchId}`);
    if (batch.json.status !== "VALIDATING") {
      expect(batch.json.status, batch.text).toBe("VALIDATED");
      break;
    }
    if (tries > 100) throw new Error("the batch was not validated within 20 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
});
afterAll(async () => {
  await platform?.close();
});

describe("one credential approving a two-approval batch alone", () => {
  it("counts the credential, not what the request claims, and funds only on another app's approval", async () => {
    const approve = (creds: Credentials, body?: unknown, headers: Record<string, string> = {}) =>
      platform.partner(creds, "POST", `/batches/${batchId}/approve`, body, headers);
    const before = await balanceOf(platform, partner.partnerId);

    const first = await approve(partner);
    expect([first.status, first.json.status]).toEqual([200, "AWAITING_APPROVAL"]);

    const attempts = [
      await approve(partner),
      await approve(partner, { approver_id: secondApp.clientId }),
      await approve(partner, undefined, {
        "x-approver-id": secondApp.clientId,
        "x-client-id": secondApp.clientId,
      }),
    ];
    for (const again of attempts) {
      expect([again.status, again.json.code], again.text).toEqual([409, "BATCH_ALREADY_APPROVED_BY"]);
    }
    const waiting = await platform.partner(partner, "GET", `/batches/${batchId}`);
    expect(waiting.json.status).toBe("AWAITING_APPROVAL");
    expect(waiting.json.approvals.map((a: { approver_id: string }) => a.approver_id)).toEqual([
      partner.clientId,
    ]);
    expect(await balanceOf(platform, partner.partnerId)).toBe(before);

    const second = await approve(secondApp);
    expect([second.status, second.json.status], second.text).toEqual([200, "PROCESSING"]);
    expect(second.json.approvals.map((a: { approver_id: string }) => a.approver_id)).toEqual([
      partner.clientId,
      secondApp.clientId,
    ]);
  });
});
