import { totpCode } from "@payouts/gateway/edge";
import type { Browser } from "playwright-core";
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

beforeAll(async () => {
  [platform, browser] = await Promise.all([startTestPlatform(), launchChromium()]);
  partnerId = (await platform.createPartner({ name: "Console roles" })).partnerId;
});
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

  it("shows a finance operator the credit control", async () => {
    const finance = await createOperator(platform, "finance");
    const session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
    await session.signInAsOperator(finance.username, finance.password, totpCode(finance.totpSecret));
    await session.goto(`/partners/${partnerId}`);
    await session.page.getByRole("button", { name: "Credit balance…" }).waitFor();
    await session.close();
  });
});
