import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OIDC_CLIENT, startOidcProvider, type TestOidcProvider } from "../support/oidc-provider.js";
import { freePort, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { checkView, DESKTOP, launchChromium } from "./support/browser.js";
import { ConsoleSession } from "./support/console-page.js";

/**
 * Single sign-on and four-eyes approval end to end, in Debian's Chromium: the platform signs operators in
 * with OpenID Connect against a real provider (`oidc-provider`, started here). Two finance operators sign in
 * through the console's "Sign in with SSO" and the provider's own login and consent pages; one asks for a
 * credit above the threshold, the other approves it in the inbox, the balance changes once, and the Audit
 * view shows both actions by name with the hash chain intact.
 */
let platform: TestPlatform;
let idp: TestOidcProvider;
let browser: Browser;
let partnerId = "";
const GROUPS = { "ana-sso": ["ops-finance"], "bo-sso": ["ops-finance"] };

beforeAll(async () => {
  const adminPort = await freePort();
  const adminUrl = `http://127.0.0.1:${adminPort}`;
  [idp, browser] = await Promise.all([startOidcProvider({ adminUrl, groups: GROUPS }), launchChromium()]);
  platform = await startTestPlatform({
    env: {
      ADMIN_PORT: String(adminPort),
      FOUR_EYES_APPROVALS: "true",
      FOUR_EYES_CREDIT_THRESHOLD_USD: "100",
      OIDC_ISSUER: idp.issuer,
      OIDC_CLIENT_ID: OIDC_CLIENT.id,
      OIDC_CLIENT_SECRET: OIDC_CLIENT.secret,
      OIDC_REDIRECT_URI: `${adminUrl}/admin/oidc/callback`,
      OIDC_SCOPES: "openid profile groups",
      OIDC_ROLE_MAP: "ops-finance=finance",
      OIDC_POST_LOGOUT_REDIRECT_URI: `${adminUrl}/console/`,
    },
  });
  ({ partnerId } = await platform.createPartner({ name: "SSO approvals" }));
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await platform?.close();
  await idp?.close();
});

const balanceUsd = async () =>
  Number((await platform.admin("GET", `/admin/partners/${partnerId}/balance`)).json.balance_usd);

/** A fresh browser context signed in through "Sign in with SSO" and the provider's login and consent pages. */
async function signInWithSso(login: string): Promise<ConsoleSession> {
  const session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
  const { page } = session;
  await session.goto("/");
  await page.getByRole("link", { name: "Sign in with SSO" }).click();
  // The provider's own pages: any password is accepted for a known account, then the consent.
  await page.waitForURL((url) => url.origin === idp.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByRole("navigation", { name: "Main" }).waitFor();
  await page.getByText(`${login} (finance)`).waitFor();
  return session;
}

describe("SSO sign-in and a four-eyes approval in the console", () => {
  it("one SSO operator asks for a credit, another approves it, and the audit trail names both", async () => {
    const [ana, bo] = [await signInWithSso("ana-sso"), await signInWithSso("bo-sso")];
    try {
      await ana.goto(`/partners/${partnerId}`);
      await ana.page.getByRole("button", { name: "Credit balance…" }).click();
      const dialog = ana.page.getByRole("dialog", { name: "Credit the partner's balance" });
      await dialog.getByLabel("Amount (USD)").fill("640");
      await dialog.getByLabel("Reference").fill("sso wire");
      await dialog.getByRole("button", { name: "Credit 640.00 USD" }).click();
      await ana.notice(/Sent for approval: the credit of 640\.00 USD/);
      expect(await balanceUsd()).toBe(0);

      await bo.nav("Approvals");
      const row = bo.page.getByRole("row").filter({ hasText: "ana-sso" });
      await row.getByRole("cell", { name: "ana-sso (operator)" }).waitFor();
      await checkView(bo.page, "sso-approvals-inbox");
      await row.getByRole("button", { name: "Approve…" }).click();
      const confirm = bo.page.getByRole("dialog", { name: /^Approve balance credit apr_/ });
      await confirm.getByRole("button", { name: "Approve and carry out" }).click();
      await bo.notice(/Approved apr_\w+: Credit of 640\.00 USD .* Done\./);
      expect(await balanceUsd()).toBe(640);
      const entries = await platform.admin("GET", `/admin/partners/${partnerId}/balance/entries?limit=100`);
      expect(
        entries.json.entries.filter((e: { reference?: string }) => e.reference === "sso wire"),
      ).toHaveLength(1);

      await bo.nav("Audit");
      await bo.page.locator('[data-chain="ok"]').waitFor();
      const rows = bo.page.getByRole("region", { name: "Audit records" }).locator("tbody tr");
      await rows.filter({ hasText: "ana-sso" }).filter({ hasText: "/balance/credits" }).first().waitFor();
      await rows.filter({ hasText: "bo-sso" }).filter({ hasText: "approve" }).first().waitFor();
    } finally {
      await ana.close();
      await bo.close();
    }
  });
});
