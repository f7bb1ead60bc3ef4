import { totpCode } from "@payouts/gateway/edge";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOperator } from "../support/operator-session.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { checkView, DESKTOP, launchChromium } from "./support/browser.js";
import { ConsoleSession } from "./support/console-page.js";

/**
 * Named operators in the console (Debian's Chromium, a started platform): sign-in with user name, password
 * and authenticator code into an HttpOnly session cookie, who is signed in shown in the shell, no control
 * for an action the role cannot take, and sign-out ending the session server-side.
 */
let platform: TestPlatform;
let browser: Browser;
let partnerId: string;
let batchId: string;
let configId: string;

beforeAll(async () => {
  [platform, browser] = await Promise.all([
    // Four-eyes on, so that the Approvals inbox has a pending request to offer Approve and Reject for.
    startTestPlatform({ env: { FOUR_EYES_APPROVALS: "true", FOUR_EYES_CREDIT_THRESHOLD_USD: "100" } }),
    launchChromium(),
  ]);
  const partner = await platform.createPartner({ name: "Console roles" });
  partnerId = partner.partnerId;
  const credit = await platform.admin(
    "POST",
    `/admin/partners/${partnerId}/balance/credits`,
    {
      amount_usd: "500",
      reference: "roles wire",
    },
    { "x-idempotency-key": "roles-credit" },
  );
  expect(credit.status, credit.text).toBe(202);
  const corridor = await platform.admin("PUT", "/admin/corridors/BR", {
    currency: "BRL",
    min_amount: "1",
    max_amount: "1000000",
  });
  expect(corridor.status, corridor.text).toBe(200);
  const batch = await platform.partner(
    partner,
    "POST",
    "/batches",
    {
      items: [
        {
          item_ref: "row-a",
          amount: 100,
          partner_transaction_id: "roles-row-a",
          customer_id: "cus_nobody",
          country_code: "BR",
          payment_method: "payment_key",
          payment_destination: "52998224725",
          payment_destination_code: "PIX",
        },
      ],
    },
    { "x-idempotency-key": "roles-batch" },
  );
  expect(batch.status, batch.text).toBe(202);
  batchId = batch.json.batch_id;
  const config = await platform.partner(partner, "POST", "/webhookConfigs", {
    url: "http://127.0.0.1:9/hook",
    events: ["transaction.success"],
  });
  expect(config.status, config.text).toBe(201);
  configId = config.json.config_id;
});

/** The pages an operator visits, what shows each is loaded, and every control of an action a viewer may not take. */
const GATED: { path: () => string; loaded: (page: Page) => Locator; controls: (page: Page) => Locator[] }[] =
  [
    {
      path: () => `/partners/${partnerId}`,
      loaded: (page) => page.getByRole("heading", { name: "Apps" }),
      controls: (page) => [
        page.getByRole("button", { name: "Save changes" }),
        page.getByRole("button", { name: "Credit balance…" }),
        page.getByRole("button", { name: "Create app" }),
        page.getByRole("button", { name: /^Revoke / }),
        page.getByRole("button", { name: /^Edit limit of / }),
        page.getByRole("button", { name: "Save time zone" }),
      ],
    },
    {
      path: () => "/reference-data",
      loaded: (page) => page.getByRole("region", { name: "Corridor limits table" }).getByRole("row").nth(1),
      controls: (page) => [
        page.getByRole("button", { name: / rate$/ }),
        page.getByRole("heading", { name: "Set a rate for another currency" }),
        page.getByRole("button", { name: / corridor$/ }),
        page.getByRole("heading", { name: "Add a corridor" }),
      ],
    },
    {
      path: () => "/webhooks",
      loaded: (page) => page.getByRole("region", { name: "Webhook configs table" }).getByText(configId),
      controls: (page) => [
        page.getByRole("button", { name: `Disable ${configId}` }),
        page.getByRole("button", { name: `Pause ${configId}` }),
      ],
    },
    {
      path: () => "/reconciliation",
      loaded: (page) => page.getByRole("heading", { name: "Runs" }),
      controls: (page) => [page.getByRole("button", { name: "Run now" })],
    },
    {
      path: () => `/batches/${batchId}`,
      loaded: (page) => page.getByRole("heading", { level: 1, name: batchId }),
      controls: (page) => [page.getByRole("button", { name: "Cancel batch…" })],
    },
    {
      path: () => "/approvals",
      loaded: (page) => page.getByRole("row").filter({ hasText: partnerId }),
      controls: (page) => [
        page.getByRole("button", { name: "Approve…" }),
        page.getByRole("button", { name: "Reject…" }),
      ],
    },
  ];
afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

describe("operators in the console", () => {
  it("signs a viewer in with a cookie the page cannot read, shows who it is, and hides what it cannot do", async () => {
    const viewer = await createOperator(platform, "viewer");
    const session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
    const { page } = session;
    await session.signInAsOperator(viewer.username, viewer.password, totpCode(viewer.totpSecret));
    await page.getByText(`${viewer.username} (viewer)`).waitFor();
    const storage = await session.storage();
    // The session is an HttpOnly cookie: nothing in storage, nothing script-readable.
    expect(storage).toEqual({ session: {}, localCount: 0, cookies: "" });
    await session.goto("/partners");
    await page.getByRole("heading", { level: 1, name: "Partners" }).waitFor();
    expect(await page.getByRole("heading", { name: "Create a partner" }).count()).toBe(0);
    await session.goto(`/partners/${partnerId}`);
    await page.getByRole("heading", { name: "Balance", exact: true }).waitFor();
    expect(await page.getByRole("button", { name: "Credit balance…" }).count()).toBe(0);
    await checkView(page, "viewer-partner");

    const cookies = await session.context.cookies();
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    expect(cookie).toContain("payouts_admin_session=ses_");
    expect(cookies.find((c) => c.name === "payouts_admin_session")).toMatchObject({
      httpOnly: true,
      sameSite: "Strict",
    });
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("User name").waitFor();
    // The session ended server-side: a copy of the cookie taken before is refused now.
    await expect
      .poll(async () => (await fetch(`${platform.adminUrl}/admin/session`, { headers: { cookie } })).status)
      .toBe(401);
    await session.close();
  });

  it("shows a viewer no control of an action it cannot take on any page, and an admin every one", async () => {
    const viewer = await createOperator(platform, "viewer");
    const admin = await createOperator(platform, "admin");
    const [asViewer, asAdmin] = await Promise.all([
      ConsoleSession.open(browser, platform.adminUrl, DESKTOP),
      ConsoleSession.open(browser, platform.adminUrl, DESKTOP),
    ]);
    await asViewer.signInAsOperator(viewer.username, viewer.password, totpCode(viewer.totpSecret));
    await asAdmin.signInAsOperator(admin.username, admin.password, totpCode(admin.totpSecret));
    for (const view of GATED) {
      await asAdmin.goto(view.path());
      await view.loaded(asAdmin.page).first().waitFor();
      for (const control of view.controls(asAdmin.page)) await control.first().waitFor();

      await asViewer.goto(view.path());
      await view.loaded(asViewer.page).first().waitFor();
      const shown = await Promise.all(view.controls(asViewer.page).map((control) => control.count()));
      expect(shown, `controls a viewer sees on ${view.path()}`).toEqual(shown.map(() => 0));
    }
    await asViewer.close();
    await asAdmin.close();
  });

  it("shows a finance operator the credit control", async () => {
    const finance = await createOperator(platform, "finance");
    const session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
    await session.signInAsOperator(finance.username, finance.password, totpCode(finance.totpSecret));
    await session.goto(`/partners/${partnerId}`);
    await session.page.getByRole("button", { name: "Credit balance…" }).waitFor();
    await session.close();
  });
});
