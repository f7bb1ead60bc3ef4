import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { checkView, DESKTOP, launchChromium, PHONE } from "./support/browser.js";
import { ConsoleSession } from "./support/console-page.js";

/**
 * Bulk payouts in the operator console, in Debian's Chromium against a platform on real PostgreSQL: a
 * partner's batch in the list of every partner's batches (filtered by status), its page with counts and
 * items, and cancelling it.
 */
let platform: TestPlatform;
let browser: Browser;
let session: ConsoleSession;
let batchId = "";

beforeAll(async () => {
  [platform, browser] = await Promise.all([startTestPlatform(), launchChromium()]);
  const partner = await platform.createPartner();
  const items = ["row-a", "row-b"].map((ref, n) => ({
    item_ref: ref,
    amount: 100 + n,
    partner_transaction_id: `console-${ref}`,
    customer_id: "cus_nobody",
    country_code: "BR",
    payment_method: "payment_key",
    payment_destination: "52998224725",
    payment_destination_code: "PIX",
  }));
  const created = await platform.partner(
    partner,
    "POST",
    "/batches",
    { items },
    {
      "x-idempotency-key": "console-batch",
    },
  );
  expect(created.status, created.text).toBe(202);
  batchId = created.json.batch_id;
  session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
  await session.signIn(ADMIN_TOKEN);
});
afterAll(async () => {
  await session?.close();
  await browser?.close();
  await platform?.close();
});

describe("batches in the operator console", () => {
  it("lists every partner's batches, filters by status, and opens one with its counts and items", async () => {
    const { page } = session;
    await session.nav("Batches");
    const table = page.getByRole("region", { name: "Batches table" });
    await table.getByRole("link", { name: batchId }).waitFor();
    await page.getByLabel("Status").selectOption("CANCELLED");
    await page.getByText("No batch matches this filter.").waitFor();
    expect(new URL(page.url()).searchParams.get("status")).toBe("CANCELLED");
    await page.getByLabel("Status").selectOption("");
    await checkView(page, "batches-page");

    await table.getByRole("link", { name: batchId }).click();
    await page.getByRole("heading", { level: 1, name: batchId }).waitFor();
    const counts = page.getByRole("region", { name: "Item counts" });
    await expect.poll(() => counts.locator("td").first().textContent()).toBe("2");
    const rows = page.getByRole("region", { name: "Items table" });
    await rows.getByRole("rowheader", { name: "row-a" }).waitFor();
    await rows.getByRole("rowheader", { name: "row-b" }).waitFor();
    await checkView(page, "batch-page");
  });

  it("cancels the batch after confirmation, naming the operator", async () => {
    const { page } = session;
    await session.goto(`/batches/${batchId}`);
    await page.getByRole("button", { name: "Cancel batch…" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Cancel batch" }).click();
    await session.notice(`Cancelled ${batchId}`);
    await page.locator(".facts .badge", { hasText: /^CANCELLED$/ }).waitFor();
    expect(await page.getByRole("button", { name: "Cancel batch…" }).count()).toBe(0);
    const stored = await platform.admin("GET", `/admin/batches/${batchId}`);
    expect(stored.json.status).toBe("CANCELLED");
    expect(stored.json.cancel_reason).toMatch(/^cancelled by operator /);

    const phone = await ConsoleSession.open(browser, platform.adminUrl, PHONE);
    await phone.signIn(ADMIN_TOKEN);
    await phone.goto(`/batches/${batchId}`);
    await phone.page.getByRole("region", { name: "Items table" }).waitFor();
    await checkView(phone.page, "batch-page");
    await phone.close();
  });
});
