/**
 * @payouts/client/admin against a started platform: the operators' calls typed from the admin document,
 * the Bearer token, failures as PayoutsError, and a partner set up entirely through it then paying out
 * through the partner client.
 */
import { createPayoutsClient } from "@payouts/client";
import {
  type AdminErrorCodeOf,
  createAdminClient,
  dataOf,
  isAdminError,
  PayoutsError,
} from "@payouts/client/admin";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { BR_PIX_DESTINATION, BR_SENDER } from "./support/client-fixtures.js";

let platform: TestPlatform;

beforeAll(async () => {
  platform = await startTestPlatform({ env: { QUOTE_TTL_MS: "600000" } });
});
afterAll(async () => {
  await platform?.close();
});

const adminOf = (token = ADMIN_TOKEN) => createAdminClient({ baseUrl: platform.adminUrl, token });

async function failureOf(call: Promise<unknown>): Promise<PayoutsError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PayoutsError);
  return error as PayoutsError;
}

describe("the admin client", () => {
  it("sets up a corridor and a funded partner whose app then pays out through the partner client", async () => {
    const admin = adminOf();
    await dataOf(
      admin.PUT("/admin/fx-rates/{currency}", {
        params: { path: { currency: "BRL" } },
        body: { rate_per_usd: "5.4" },
      }),
    );
    await dataOf(
      admin.PUT("/admin/corridors/{country_code}", {
        params: { path: { country_code: "BR" } },
        body: { currency: "BRL", min_amount: "1", max_amount: "50000", enabled: true },
      }),
    );
    expect((await dataOf(admin.GET("/admin/fx-rates"))).fx_rates).toContainEqual(
      expect.objectContaining({ currency: "BRL" }),
    );

    const partner = await dataOf(
      admin.POST("/admin/partners", {
        body: {
          name: "Admin client partner",
          supported_currencies: ["BRL"],
          fees: { percent: "1.5", fixed_usd: "0.30" },
        },
      }),
    );
    expect(partner.partner_id).toMatch(/^ptr_/);
    const path = { partner_id: partner.partner_id };
    const app = await dataOf(admin.POST("/admin/partners/{partner_id}/apps", { params: { path }, body: {} }));
    const credit = (key: string) =>
      dataOf(
        admin.POST("/admin/partners/{partner_id}/balance/credits", {
          params: { path, header: { "X-Idempotency-Key": key } },
          body: { amount_usd: "100", reference: "admin client test" },
        }),
      );
    await credit(`fund-${partner.partner_id}`);
    await credit(`fund-${partner.partner_id}`); // replayed: credited once
    expect(
      (await dataOf(admin.GET("/admin/partners/{partner_id}/balance", { params: { path } }))).balance_usd,
    ).toBe("100");

    const payouts = createPayoutsClient({
      baseUrl: platform.baseUrl,
      clientId: app.client_id,
      clientSecret: app.client_secret,
    });
    const customer = await payouts.createCustomer(BR_SENDER);
    const lookup = await payouts.lookupPaymentCode({
      customer_id: customer.customer_id,
      ...BR_PIX_DESTINATION,
    });
    await payouts.getQuotation({ tx_id: lookup.tx_id, amount: 54 });
    await payouts.executePayout({ tx_id: lookup.tx_id });
    const settled = await dataOf(
      admin.POST("/admin/sandbox/transactions/{tx_id}/settle", {
        params: { path: { tx_id: lookup.tx_id } },
        body: { outcome: "SUCCESS" },
      }),
    );
    expect(settled).toMatchObject({ delivered: true });
    const refund = await dataOf(
      admin.POST("/admin/transactions/{tx_id}/refund", {
        params: { path: { tx_id: lookup.tx_id } },
        body: { reason: "admin client test" },
      }),
    );
    expect(refund).toMatchObject({ status: "REFUNDED" });
    expect((await payouts.getBalance()).balance_usd).toBe(100);

    // Revoking the app: the partner client's calls are refused from then on.
    await dataOf(
      admin.DELETE("/admin/partners/{partner_id}/apps/{client_id}", {
        params: { path: { ...path, client_id: app.client_id } },
      }),
    );
    expect(await failureOf(payouts.getBalance())).toMatchObject({
      status: 401,
      code: "AUTHENTICATION_REQUIRED",
    });
  });

  it("rejects error answers as typed PayoutsErrors, and a wrong token as 401", async () => {
    const error = await adminOf()
      .GET("/admin/partners/{partner_id}", { params: { path: { partner_id: "ptr_unknown" } } })
      .catch((e: unknown) => e);
    expect(isAdminError(error, "getPartner")).toBe(true);
    if (isAdminError(error, "getPartner")) {
      expectTypeOf(error.code).toEqualTypeOf<
        AdminErrorCodeOf<"getPartner"> | "NETWORK_ERROR" | "INVALID_RESPONSE"
      >();
      expect(error).toMatchObject({ status: 404, code: "PARTNER_NOT_FOUND" });
      expect(error.request_id).toMatch(/^req_/);
    }
    const invalid = await failureOf(
      dataOf(
        adminOf().PUT("/admin/fx-rates/{currency}", {
          params: { path: { currency: "BRL" } },
          body: { rate_per_usd: "-1" },
        }),
      ),
    );
    expect(invalid).toMatchObject({ status: 400, field: "rate_per_usd" });
    expect(await failureOf(dataOf(adminOf("wrong-token").GET("/admin/fx-rates")))).toMatchObject({
      status: 401,
      code: "AUTHENTICATION_REQUIRED",
    });
    const nowhere = createAdminClient({ baseUrl: "http://127.0.0.1:9", token: ADMIN_TOKEN });
    expect(await failureOf(dataOf(nowhere.GET("/admin/fx-rates")))).toMatchObject({
      status: 0,
      code: "NETWORK_ERROR",
    });
  });
});
