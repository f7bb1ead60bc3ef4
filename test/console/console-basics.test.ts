import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putReferenceData } from "../pricing/pricing-fixtures.js";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { checkView, DESKTOP, launchChromium, PHONE } from "./support/browser.js";
import { ConsoleSession } from "./support/console-page.js";

/**
 * The operator console in Debian's Chromium against a started platform (real PostgreSQL and Kafka): signing
 * in, the token's handling, and the reference data view.
 */
let platform: TestPlatform;
let browser: Browser;

beforeAll(async () => {
  [platform, browser] = await Promise.all([startTestPlatform({ kafka: true }), launchChromium()]);
  await putReferenceData(platform);
});
afterAll(async () => {
  await browser?.close();
  await platform?.close();
});

describe("signing in", () => {
  it("refuses a wrong token with a clear error and keeps nothing", async () => {
    const session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
    const { page } = session;
    await session.goto("/transactions");
    await expect.poll(() => new URL(page.url()).pathname).toBe("/console/signin");
    await session.fillToken("not-the-admin-token");
    await page.getByRole("alert").filter({ hasText: "refused" }).waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("Those credentials were refused (401)");
    expect(await session.storage()).toEqual({ session: {}, localCount: 0, cookies: "" });
    expect(await page.getByRole("navigation", { name: "Main" }).count()).toBe(0);
    // The wrong token was sent as a Bearer token and the API refused it (the page's own checks of the
    // session cookie and the sign-in options carry no token).
    expect(session.apiRequests.flatMap((r) => r.authorization ?? [])).toEqual(["Bearer not-the-admin-token"]);
    await checkView(page, "sign-in-refused");
    await session.close();
  });

  it("keeps the token in sessionStorage only, sends it as Bearer on every request, and signs out", async () => {
    const session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
    const { page } = session;
    await session.goto("/reference-data");
    await session.fillToken(ADMIN_TOKEN);
    // Back to the page asked for before signing in.
    await page.getByRole("heading", { level: 1, name: "Reference data" }).waitFor();
    const storage = await session.storage();
    expect(Object.values(storage.session)).toEqual([ADMIN_TOKEN]);
    expect(storage.localCount).toBe(0);
    expect(storage.cookies).toBe("");
    // A reload keeps the session (same tab); a new browser context (another session) does not have it.
    await page.reload();
    await page.getByRole("heading", { level: 1, name: "Reference data" }).waitFor();
    const other = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
    await other.goto("/reference-data");
    await other.page.getByLabel("User name").waitFor();
    await other.close();

    // Before signing in, the page asks who is signed in (by cookie) and how to sign in: no token yet.
    const beforeSignIn = /\/admin\/(session|sign-in-options)$/;
    const withToken = session.apiRequests.filter(
      (r) => r.authorization !== undefined || !beforeSignIn.test(new URL(r.url).pathname),
    );
    expect(withToken.length).toBeGreaterThan(2);
    for (const req of withToken) expect(req.authorization, req.url).toBe(`Bearer ${ADMIN_TOKEN}`);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("User name").waitFor();
    expect((await session.storage()).session).toEqual({});
    await session.close();
  });

  it("ends the session when the API starts refusing the token", async () => {
    const session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
    const { page } = session;
    await session.signIn(ADMIN_TOKEN);
    await session.overwriteSessionStorage("revoked-token");
    await session.goto("/reference-data");
    // The view's first API call is refused: the operator is back at the sign-in page, told why.
    await page.getByRole("alert").filter({ hasText: "refused the token" }).waitFor();
    await page.getByLabel("User name").waitFor();
    expect((await session.storage()).session).toEqual({});
    await session.close();
  });
});

describe("reference data", () => {
  it("edits an FX rate inline with validation, and a new preview uses it", async () => {
    const partner = await platform.createPartner({
      supported_currencies: ["BRL"],
      fees: { percent: "0", fixed_usd: "0" },
    });
    for (const viewport of [DESKTOP, PHONE]) {
      const session = await ConsoleSession.open(browser, platform.adminUrl, viewport);
      await session.signIn(ADMIN_TOKEN);
      await session.nav("Reference data");
      await session.page.getByRole("cell", { name: "5.4" }).first().waitFor();
      await checkView(session.page, "reference-data");
      await session.close();
    }

    const session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
    const { page } = session;
    await session.signIn(ADMIN_TOKEN);
    await session.nav("Reference data");
    await page.getByRole("button", { name: "Edit BRL rate" }).click();
    const input = page.getByLabel("New rate per USD for BRL");
    await input.fill("5,9");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.getByText("must be a decimal number").waitFor();
    expect(await input.getAttribute("aria-invalid")).toBe("true");
    await input.fill("6.125");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await session.notice("BRL is now 6.125 per USD.");
    await page.getByRole("cell", { name: "6.125" }).waitFor();

    const preview = await platform.partner(partner, "POST", "/previewQuotations", {
      amount: 100,
      currency: "USD",
    });
    expect(preview.status, preview.text).toBe(200);
    const brl = preview.json.quotations.find((q: { currency: string }) => q.currency === "BRL");
    expect(Number(brl.exchange_rate)).toBe(6.125);

    // A corridor whose maximum is below its minimum is refused before any request.
    const before = session.apiRequests.length;
    await page.getByRole("button", { name: "Edit BR corridor" }).click();
    await page.getByLabel("Maximum amount").first().fill("0.5");
    await page.getByRole("button", { name: "Save BR" }).click();
    await page.getByText("The maximum must not be below the minimum.").waitFor();
    expect(session.apiRequests.length).toBe(before);

    // A refusal of the API that names a field is shown at that field, not only under the row.
    await page.getByLabel("Maximum amount").first().fill("1000000");
    const minimum = page.getByLabel("Minimum amount").first();
    await minimum.fill("1.123");
    await page.getByRole("button", { name: "Save BR" }).click();
    await page.locator("#corridor-BR-min_amount-error").filter({ hasText: "Not saved:" }).waitFor();
    expect(await minimum.getAttribute("aria-invalid")).toBe("true");
    expect(session.apiRequests.length).toBe(before + 1);
    await session.close();
  });
});
