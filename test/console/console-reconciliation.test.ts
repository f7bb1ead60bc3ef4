import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { checkView, DESKTOP, launchChromium } from "./support/browser.js";
import { ConsoleSession } from "./support/console-page.js";

/**
 * Reconciliation in the operator console, in Debian's Chromium against a platform on real PostgreSQL: a
 * record planted into the sandbox rail's day is found by a run started from the page, listed as an open
 * break, and resolved there with a note the ledger keeps.
 */
let platform: TestPlatform;
let browser: Browser;
let session: ConsoleSession;

beforeAll(async () => {
  [platform, browser] = await Promise.all([
    startTestPlatform({ env: { RECONCILIATION_INTERVAL_MS: "0" } }),
    launchChromium(),
  ]);
  session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
  await session.signIn(ADMIN_TOKEN);
});
afterAll(async () => {
  await session?.close();
  await browser?.close();
  await platform?.close();
});

describe("the reconciliation page", () => {
  it("runs a day, lists the break it opened, and resolves it with a note", async () => {
    const day = new Date().toISOString().slice(0, 10);
    const planted = await platform.admin("POST", `/admin/sandbox/settlements/${day}/discrepancies`, {
      kind: "ADD_UNKNOWN_RECORD",
      amount: "42",
      currency: "NGN",
    });
    expect(planted.status, planted.text).toBe(201);

    const { page } = session;
    await session.nav("Reconciliation");
    await page.getByLabel("UTC day").first().fill(day);
    await page.getByRole("button", { name: "Run now" }).click();
    await session.notice(`Run of ${day}: 1 breaks found, 1 new`);

    const breaks = page.getByRole("region", { name: "Reconciliation breaks" });
    const row = breaks.getByRole("row").filter({ hasText: "missing_in_ledger" });
    await row.waitFor();
    expect(await row.textContent()).toContain("42");
    await checkView(page, "reconciliation");

    const [open] = (await platform.admin("GET", "/admin/reconciliation/breaks?state=open")).json.breaks;
    await row.getByRole("button", { name: `Resolve ${open.break_id}` }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Note").fill("unknown to us; the rail withdrew the record");
    await dialog.getByLabel("Your name").fill("ops-carol");
    await dialog.getByRole("button", { name: "Resolve" }).click();
    await session.notice("resolved");

    const resolved = (await platform.admin("GET", "/admin/reconciliation/breaks?state=resolved")).json.breaks;
    expect(resolved.map((b: { break_id: string }) => b.break_id)).toEqual([open.break_id]);
    expect(resolved[0].resolution).toMatchObject({
      note: "unknown to us; the rail withdrew the record",
      resolved_by: "ops-carol",
    });
    // The open list the page shows by default no longer has it.
    await breaks.getByRole("row").filter({ hasText: "missing_in_ledger" }).waitFor({ state: "detached" });
  });
});
