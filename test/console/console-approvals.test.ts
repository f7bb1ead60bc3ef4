import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { checkView, DESKTOP, launchChromium } from "./support/browser.js";
import { ConsoleSession } from "./support/console-page.js";

/**
 * Four-eyes approvals in the console, in Debian's Chromium against a platform on real PostgreSQL: one
 * operator credits a partner above the threshold and is told it was sent for approval; the inbox shows the
 * request with its requester and no way for them to approve it; a second operator approves it there, and
 * the balance changes once.
 */
let platform: TestPlatform;
let browser: Browser;
let requester: ConsoleSession;
let partnerId = "";

beforeAll(async () => {
  [platform, browser] = await Promise.all([
    startTestPlatform({ env: { FOUR_EYES_APPROVALS: "true", FOUR_EYES_CREDIT_THRESHOLD_USD: "100" } }),
    launchChromium(),
  ]);
  ({ partnerId } = await platform.createPartner());
  requester = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
  await requester.signIn(ADMIN_TOKEN);
});
afterAll(async () => {
  await requester?.close();
  await browser?.close();
  await platform?.close();
});

const balanceUsd = async () =>
  Number((await platform.admin("GET", `/admin/partners/${partnerId}/balance`)).json.balance_usd);

describe("four-eyes approvals in the console", () => {
  it("sends a credit above the threshold for approval; its requester cannot approve it", async () => {
    const { page } = requester;
    await requester.goto(`/partners/${partnerId}`);
    await page.getByRole("button", { name: "Credit balance…" }).click();
    const dialog = page.getByRole("dialog", { name: "Credit the partner's balance" });
    await dialog.getByLabel("Amount (USD)").fill("500");
    await dialog.getByLabel("Reference").fill("wire 2026-11-28");
    await dialog.getByRole("button", { name: "Credit 500.00 USD" }).click();
    await requester.notice(/Sent for approval: the credit of 500\.00 USD .* The balance has not changed\./);
    expect(await balanceUsd()).toBe(0);

    await requester.nav("Approvals");
    const row = page.getByRole("row").filter({ hasText: partnerId });
    await row.waitFor();
    expect(await row.getByRole("button", { name: "Approve…" }).isDisabled()).toBe(true);
    await row.getByText("You requested this: another operator must approve it.").waitFor();
    await row.getByRole("cell", { name: "admin-token (machine)" }).waitFor();
    await checkView(page, "approvals-page");
    expect(await balanceUsd()).toBe(0);
  });
});
