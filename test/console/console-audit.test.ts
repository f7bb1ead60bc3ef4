import { readFile } from "node:fs/promises";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { checkView, DESKTOP, launchChromium, PHONE } from "./support/browser.js";
import { ConsoleSession } from "./support/console-page.js";

/**
 * The audit trail in the console, in Debian's Chromium against a platform on real PostgreSQL: an operator
 * credits a partner's balance, then finds that credit in the Audit view (filtered by the partner), sees the
 * hash chain checked, and exports the same records as CSV.
 */
let platform: TestPlatform;
let browser: Browser;
let session: ConsoleSession;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startTestPlatform(), launchChromium()]);
  session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
  await session.signIn(ADMIN_TOKEN);
});
afterAll(async () => {
  await session?.close();
  await browser?.close();
  await platform?.close();
});

describe("the Audit view", () => {
  it("shows a balance credit made in the console, with the chain state, and exports it", async () => {
    const { page } = session;
    const created = await platform.admin("POST", "/admin/partners", { name: "Audited partner" });
    const partnerId: string = created.json.partner_id;

    await session.goto(`/partners/${partnerId}`);
    await page.getByRole("button", { name: "Credit balance…" }).click();
    const dialog = page.getByRole("dialog", { name: "Credit the partner's balance" });
    await dialog.getByLabel("Amount (USD)").fill("75");
    await dialog.getByLabel("Reference").fill("audit wire");
    await dialog.getByRole("button", { name: "Credit 75.00 USD" }).click();
    await session.notice(/Credited 75\.00 USD/);

    await session.nav("Audit");
    await page.locator('[data-chain="ok"]').waitFor();
    const verification = await platform.admin("GET", "/admin/audit/verification");
    await page.getByText(`up to record ${verification.json.verified_through}`).waitFor();

    await page.getByLabel("Target id").fill(partnerId);
    await page.getByLabel("Target id").press("Enter");
    // Filtered by the partner: its credit only (the unfiltered list also shows the partner's creation).
    const rows = page.getByRole("region", { name: "Audit records" }).locator("tbody tr");
    await expect
      .poll(() => rows.allTextContents(), { timeout: 15_000 })
      .toEqual([expect.stringContaining("POST /admin/partners/:partner_id/balance/credits")]);
    const text = (await rows.first().textContent()) ?? "";
    expect(text).toContain("admin-token");
    expect(text).toContain("succeeded");
    expect(text).toContain("201");
    expect(text).toContain(`partner_id=${partnerId}`);
    expect(text).toContain('"reference":"audit wire"');
    expect(new URL(page.url()).searchParams.get("target_id")).toBe(partnerId);
    await checkView(page, "audit-page");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("audit.csv");
    const csv = await readFile((await download.path()) ?? "", "utf8");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toMatch(/^sequence,at,actor_id,/);
    expect(
      lines.slice(1).map((line) => line.includes("/admin/partners/:partner_id/balance/credits")),
    ).toEqual([true]);
    // The export is itself in the trail.
    const exports = await platform.admin(
      "GET",
      `/admin/audit?route=${encodeURIComponent("/admin/audit/export.csv")}`,
    );
    expect(exports.json.records[0]).toMatchObject({ status: 200, outcome: "succeeded" });

    const phone = await ConsoleSession.open(browser, platform.adminUrl, PHONE);
    await phone.signIn(ADMIN_TOKEN);
    await phone.goto(`/audit?target_id=${partnerId}`);
    await phone.page.locator('[data-chain="ok"]').waitFor();
    await phone.page.getByRole("row").filter({ hasText: "/balance/credits" }).waitFor();
    await checkView(phone.page, "audit-page");
    await phone.close();
  });
});
