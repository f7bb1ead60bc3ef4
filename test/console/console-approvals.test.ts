import { totpCode } from "@payouts/gateway/edge";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOperator } from "../support/operator-session.js";
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
  it("a second operator approves a colleague's credit in the inbox; the balance changes once", async () => {
    const [alice, bob] = await Promise.all([operatorSession("finance"), operatorSession("finance")]);
    const credits = async () =>
      (
        await platform.admin("GET", `/admin/partners/${partnerId}/balance/entries?limit=100`)
      ).json.entries.filter((e: { reference?: string }) => e.reference === "wire 2026-11-29").length;
    try {
      // Alice asks for the credit: sent for approval, and she cannot approve it herself.
      await alice.goto(`/partners/${partnerId}`);
      await alice.page.getByRole("button", { name: "Credit balance…" }).click();
      const dialog = alice.page.getByRole("dialog", { name: "Credit the partner's balance" });
      await dialog.getByLabel("Amount (USD)").fill("750");
      await dialog.getByLabel("Reference").fill("wire 2026-11-29");
      await dialog.getByRole("button", { name: "Credit 750.00 USD" }).click();
      await alice.notice(/Sent for approval: the credit of 750\.00 USD/);
      await alice.nav("Approvals");
      const own = alice.page.getByRole("row").filter({ hasText: alice.name });
      await own.getByText("You requested this: another operator must approve it.").waitFor();
      expect(await own.getByRole("button", { name: "Approve…" }).isDisabled()).toBe(true);
      const before = await balanceUsd();

      // Bob sees it with its requester, approves it with confirmation; it is carried out once.
      await bob.goto("/approvals");
      const row = bob.page.getByRole("row").filter({ hasText: alice.name });
      await row.getByRole("cell", { name: `${alice.name} (operator)` }).waitFor();
      await row.getByRole("button", { name: "Approve…" }).click();
      const confirm = bob.page.getByRole("dialog", { name: /^Approve balance credit apr_/ });
      await confirm.getByText(/Credit of 750\.00 USD to partner/).waitFor();
      await confirm.getByRole("button", { name: "Approve and carry out" }).click();
      await bob.notice(/Approved apr_\w+: Credit of 750\.00 USD .* Done\./);
      expect(await balanceUsd()).toBe(before + 750);
      expect(await credits()).toBe(1);

      // The request leaves both inboxes' pending lists, and pressing again anywhere cannot credit twice.
      await row.waitFor({ state: "detached" });
      await alice.page.reload();
      // Loaded: the first test's request, still pending, is listed; Alice's is not.
      await alice.page.getByRole("cell", { name: "admin-token (machine)" }).waitFor();
      await own.waitFor({ state: "detached" });
      expect(await balanceUsd()).toBe(before + 750);
      expect(await credits()).toBe(1);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});

/** A console signed in as a new named operator, through the console's own sign-in page. */
async function operatorSession(role: "finance"): Promise<ConsoleSession & { name: string }> {
  const operator = await createOperator(platform, role);
  const session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
  await session.signInAsOperator(operator.username, operator.password, totpCode(operator.totpSecret));
  return Object.assign(session, { name: operator.username });
}
