import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { createPayoutsClient, type PayoutsClient } from "@payouts/client";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putReferenceData } from "../pricing/pricing-fixtures.js";
import { ADMIN_TOKEN, startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { checkView, DESKTOP, launchChromium, PHONE, screenshot } from "./support/browser.js";
import { ConsoleSession } from "./support/console-page.js";
import { SwitchableReceiver } from "./support/receiver.js";

/**
 * What an operator does in the console, in Debian's Chromium against a platform on real PostgreSQL and Kafka:
 * onboard a partner, watch a payout through its lifecycle, refund it, and bring a dead webhook back.
 * The partner's side of each story goes through @payouts/client, as a partner's systems would.
 */
let platform: TestPlatform;
let browser: Browser;
let receiver: SwitchableReceiver;
let session: ConsoleSession;

/** What the onboarding test created, for the later stories. */
const partner = { id: "", name: `Acme Wallet ${Date.now().toString(36)}`, clientId: "", clientSecret: "" };
let payouts: PayoutsClient;
let payoutTxId = "";

/** The README's picture of the transaction page (UPDATE_CONSOLE_DOCS=1 refreshes it). */
const DOCS_PICTURE = join(process.cwd(), "gateway", "console", "docs", "transaction-page.png");

beforeAll(async () => {
  [platform, browser, receiver] = await Promise.all([
    startTestPlatform({
      kafka: true,
      // Three quick attempts, then the delivery is dead: the story of a failing receiver takes seconds.
      env: { WEBHOOK_RETRY_SCHEDULE_MS: "200,200", WEBHOOK_POLL_INTERVAL_MS: "100" },
    }),
    launchChromium(),
    SwitchableReceiver.start(),
  ]);
  await putReferenceData(platform);
  session = await ConsoleSession.open(browser, platform.adminUrl, DESKTOP);
  await session.signIn(ADMIN_TOKEN);
});
afterAll(async () => {
  await session?.close();
  await browser?.close();
  await receiver?.close();
  await platform?.close();
});

async function atPhoneWidth(path: string, ready: (s: ConsoleSession) => Promise<void>, view: string) {
  const phone = await ConsoleSession.open(browser, platform.adminUrl, PHONE);
  await phone.signIn(ADMIN_TOKEN);
  await phone.goto(path);
  await ready(phone);
  await checkView(phone.page, view);
  await phone.close();
}

describe("the operator console", () => {
  it("creates a partner and an app (secret shown once, copied), sets its rate limit, and credits the balance", async () => {
    const { page } = session;
    await session.nav("Partners");
    await page.getByLabel("Name", { exact: true }).fill(partner.name);
    await page.getByLabel("Supported currencies").fill("brl, USD");
    await page.getByLabel("Percentage fee (%)").fill("1.5");
    await page.getByLabel("Fixed fee (USD)").fill("0.30");
    await page.getByRole("button", { name: "Create partner" }).click();
    await page.getByRole("heading", { level: 1, name: partner.name }).waitFor();
    partner.id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop() ?? "");
    expect(partner.id).toMatch(/^ptr_/);
    const stored = await platform.admin("GET", `/admin/partners/${partner.id}`);
    expect(stored.json.supported_currencies.sort()).toEqual(["BRL", "USD"]);
    expect(stored.json.fees).toEqual({ percent: "1.5", fixed_usd: "0.3" });
    await page.getByText("No active apps").waitFor();

    // A new app: its secret is shown once, with a copy button, and works against the partner API.
    await page.getByRole("button", { name: "Create app" }).click();
    const secret = page.getByLabel("Client secret");
    partner.clientSecret = await secret.inputValue();
    expect(partner.clientSecret).toMatch(/^cs_/);
    await page.getByRole("button", { name: "Copy secret" }).click();
    await page.getByText("Copied.").waitFor();
    expect(await session.clipboardText()).toBe(partner.clientSecret);
    const appRow = page.getByRole("row").filter({ hasText: /ci_/ });
    partner.clientId = ((await appRow.getByRole("rowheader").textContent()) ?? "").trim();
    await page.getByRole("button", { name: "I have stored the secret" }).click();
    expect(await page.getByLabel("Client secret").count()).toBe(0);
    payouts = createPayoutsClient({
      baseUrl: platform.baseUrl,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
    });
    expect((await payouts.getBalance()).balance_usd).toBe(0);

    // The preview rate limit, edited inline with validation.
    await page.getByRole("button", { name: `Edit limit of ${partner.clientId}` }).click();
    await page.getByLabel(`Limit per minute for ${partner.clientId}`).fill("0");
    await page.getByRole("button", { name: "Save limit" }).click();
    await page.getByText("A whole number from 1 to 1,000,000.").waitFor();
    await page.getByLabel(`Limit per minute for ${partner.clientId}`).fill("120");
    await page.getByRole("button", { name: "Save limit" }).click();
    await session.notice("limited to 120 per minute");
    const apps = await platform.admin("GET", `/admin/partners/${partner.id}/apps`);
    expect(apps.json.apps[0].preview_rate_limit_per_minute).toBe(120);

    // Crediting money asks for confirmation, says what happened, and appears in the history.
    await page.getByRole("button", { name: "Credit balance…" }).click();
    const dialog = page.getByRole("dialog", { name: "Credit the partner's balance" });
    await dialog.getByLabel("Amount (USD)").fill("250.001");
    await dialog.getByRole("button", { name: /^Credit/ }).click();
    await dialog.getByText("at most 2 decimals").waitFor();
    await dialog.getByLabel("Amount (USD)").fill("250");
    await dialog.getByLabel("Reference").fill("wire 2026-11-25");
    await dialog.getByRole("button", { name: "Credit 250.00 USD" }).click();
    await session.notice("Credited 250.00 USD (reference “wire 2026-11-25”). New balance: 250.00 USD.");
    expect(await dialog.isVisible()).toBe(false);
    await page.getByRole("cell", { name: "wire 2026-11-25" }).waitFor();
    const balance = await platform.admin("GET", `/admin/partners/${partner.id}/balance`);
    expect(Number(balance.json.balance_usd)).toBe(250);

    // The statement time zone: a name the zone database lacks is refused, an IANA name is saved.
    const zone = page.getByLabel("Time zone");
    expect(await zone.inputValue()).toBe("UTC");
    await zone.fill("Mars/Olympus_Mons");
    await page.getByRole("button", { name: "Save time zone" }).click();
    await page.getByText(/Not saved.*IANA/).waitFor();
    await zone.fill("America/Sao_Paulo");
    await page.getByRole("button", { name: "Save time zone" }).click();
    await session.notice("Statements are now cut in America/Sao_Paulo. Days already closed keep their zone.");
    const settings = await platform.admin("GET", `/admin/partners/${partner.id}/statement-settings`);
    expect(settings.json.time_zone).toBe("America/Sao_Paulo");
    await checkView(page, "partner-page");

    await session.nav("Partners");
    await page.getByRole("link", { name: partner.name }).waitFor();
    await checkView(page, "partners");
    await atPhoneWidth(
      `/partners/${partner.id}`,
      (s) => s.page.getByRole("cell", { name: "wire 2026-11-25" }).waitFor(),
      "partner-page",
    );
  });

  it("shows a payout move PENDING → PROCESSING → SUCCESS, finds it by search, and refunds it", async () => {
    const { page } = session;
    const customer = await payouts.createCustomer({ name_first: "Ana", name_last: "Souza", country: "BR" });
    const lookup = await payouts.lookupPaymentCode({
      customer_id: customer.customer_id,
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "52998224725",
      payment_destination_code: "PIX",
      partner_transaction_id: "order-4711",
    });
    payoutTxId = lookup.tx_id;
    await session.goto(`/transactions/${payoutTxId}`);
    await session.waitForStatus("PENDING");
    await page.getByText("Not quoted yet.").waitFor();
    // The destination's account number is masked by the API; the page never shows it whole.
    expect(await page.locator("main").textContent()).not.toContain("52998224725");

    await payouts.getQuotation({ tx_id: payoutTxId, amount: "100.00" });
    await payouts.executePayout({ tx_id: payoutTxId });
    await session.waitForStatus("PROCESSING");
    await page.getByRole("button", { name: "Sandbox: settle as paid…" }).click();
    const settle = page.getByRole("dialog", { name: `Settle ${payoutTxId} as SUCCESS?` });
    await settle.getByRole("button", { name: "Settle as paid" }).click();
    await session.notice(`Sandbox rail settled ${payoutTxId} as SUCCESS`);
    await session.waitForStatus("SUCCESS");
    const timeline = page.locator(".timeline li");
    await expect
      .poll(() => timeline.allTextContents())
      .toEqual([
        expect.stringMatching(/^PENDING.*created/),
        expect.stringMatching(/^PROCESSING.*from PENDING/),
        expect.stringMatching(/^SUCCESS.*from PROCESSING/),
      ]);
    await page.getByRole("region", { name: "Ledger entries table" }).waitFor();
    await checkView(page, "transaction-page");

    // Search: by the partner's own id, then through the list to the page.
    await session.nav("Transactions");
    await page.getByLabel("Partner's transaction id").fill("order-4711");
    await page.getByLabel("Status").selectOption("SUCCESS");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: payoutTxId }).waitFor();
    expect(new URL(page.url()).searchParams.get("partner_transaction_id")).toBe("order-4711");
    await checkView(page, "transactions");
    await page.getByLabel("Status").selectOption("FAILED");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByText("No transaction matches these filters.").waitFor();
    await page.getByLabel("Status").selectOption("SUCCESS");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("link", { name: payoutTxId }).click();
    await session.waitForStatus("SUCCESS");

    // A refund needs a reason and a confirmation, and says what went back.
    const debited = (await platform.admin("GET", `/admin/transactions/${payoutTxId}`)).json.total_usd;
    await page.getByRole("button", { name: "Refund…" }).click();
    const refund = page.getByRole("dialog", { name: `Refund ${payoutTxId}?` });
    await refund.getByRole("button", { name: /^Refund/ }).click();
    await refund.getByText("Say why the payout is refunded").waitFor();
    await refund.getByLabel("Reason").fill("customer request");
    await refund.getByRole("button", { name: /^Refund/ }).click();
    await session.notice(`Refunded ${payoutTxId}`);
    await session.waitForStatus("REFUNDED");
    const balance = await platform.admin("GET", `/admin/partners/${partner.id}/balance`);
    expect(Number(balance.json.balance_usd)).toBe(250);
    expect(Number(debited)).toBeGreaterThan(0);
    await atPhoneWidth(`/transactions/${payoutTxId}`, (s) => s.waitForStatus("REFUNDED"), "transaction-page");
  });

  it("finds a dead delivery of a failing receiver, redelivers it once the receiver is healthy, and sees it delivered", async () => {
    const { page } = session;
    const config = await payouts.createWebhookConfig({ url: receiver.url, events: ["transaction.success"] });
    receiver.status = 500;
    const customer = await payouts.createCustomer({ name_first: "Rui", name_last: "Lima", country: "BR" });
    const lookup = await payouts.lookupPaymentCode({
      customer_id: customer.customer_id,
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: "52998224725",
      payment_destination_code: "PIX",
    });
    await payouts.getQuotation({ tx_id: lookup.tx_id, amount: "20.00" });
    await payouts.executePayout({ tx_id: lookup.tx_id });
    const settled = await platform.admin("POST", `/admin/sandbox/transactions/${lookup.tx_id}/settle`, {
      outcome: "SUCCESS",
    });
    expect(settled.status, settled.text).toBe(200);
    // The receiver refuses every attempt until the schedule is used up: the delivery is dead.
    const deadDelivery = async () =>
      (await platform.admin("GET", `/admin/webhook-deliveries?tx_id=${lookup.tx_id}&status=dead`)).json
        .deliveries[0];
    await expect.poll(deadDelivery, { timeout: 30_000 }).toBeDefined();
    const failedAttempts: number = (await deadDelivery()).attempt_count;
    expect(failedAttempts).toBeGreaterThanOrEqual(2);
    expect(receiver.received.length).toBe(failedAttempts);

    // The overview highlights it; the link leads to the dead deliveries.
    await session.nav("Overview");
    const dead = page.getByRole("link", { name: /Dead: 1/ });
    await dead.waitFor({ timeout: 20_000 });
    await checkView(page, "overview");
    await dead.click();
    await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor();
    expect(await page.getByLabel("Outcome").inputValue()).toBe("dead");
    const row = page.getByRole("row").filter({ hasText: lookup.tx_id });
    await row.getByText("dead").waitFor();
    await checkView(page, "webhooks");

    receiver.status = 200;
    await row.getByRole("button", { name: /^Redeliver/ }).click();
    await session.notice(/queued again/);
    await page.getByLabel("Outcome").selectOption("delivered");
    await page
      .getByRole("row")
      .filter({ hasText: lookup.tx_id })
      .getByText("delivered")
      .waitFor({ timeout: 20_000 });
    expect(receiver.received.at(-1)).toEqual({ path: "/webhooks/transactions/success", status: 200 });

    // The transaction page lists every attempt with its status code.
    await session.goto(`/transactions/${lookup.tx_id}`);
    const attempts = page.getByRole("table", { name: /^Attempts of / });
    // Every failed attempt, then the redelivery, each a row under the header.
    await expect.poll(() => attempts.getByRole("row").count(), { timeout: 20_000 }).toBe(failedAttempts + 2);
    expect(await attempts.textContent()).toContain("500");
    expect(await attempts.textContent()).toContain("200");
    await checkView(page, "transaction-page-webhooks");
    if (process.env.UPDATE_CONSOLE_DOCS === "1") {
      mkdirSync(dirname(DOCS_PICTURE), { recursive: true });
      copyFileSync(await screenshot(page, "transaction-page-webhooks"), DOCS_PICTURE);
    }

    // Disable the receiver, then enable it again.
    await session.nav("Webhooks");
    const receiverRow = page
      .getByRole("region", { name: "Webhook configs table" })
      .getByRole("row")
      .filter({ hasText: config.config_id });
    await receiverRow.getByRole("button", { name: `Disable ${config.config_id}` }).click();
    await session.notice("gets no new deliveries");
    await receiverRow.getByText("Disabled").waitFor();
    const listed = await platform.admin("GET", `/admin/webhook-configs?partner_id=${partner.id}`);
    expect(listed.json.webhook_configs[0].enabled).toBe(false);
    await receiverRow.getByRole("button", { name: `Enable ${config.config_id}` }).click();
    await session.notice("delivered to it again");
    await atPhoneWidth(
      "/webhooks",
      (s) => s.page.getByRole("heading", { name: "Deliveries" }).waitFor(),
      "webhooks",
    );
    await atPhoneWidth(
      "/",
      (s) => s.page.getByRole("heading", { name: "Partner balances" }).waitFor(),
      "overview",
    );
  });

  it("shows a paused receiver in the receiver health table, and resumes and pauses it from there", async () => {
    const { page } = session;
    const config = await payouts.createWebhookConfig({
      url: `${receiver.url}/health`,
      events: ["transaction.success"],
    });
    const paused = await platform.admin("POST", `/admin/webhook-receivers/${config.config_id}/pause`);
    expect(paused.status, paused.text).toBe(200);

    await session.nav("Webhooks");
    const health = page.getByRole("region", { name: "Receiver health table" });
    const row = health.getByRole("row").filter({ hasText: config.config_id });
    await row.getByRole("cell", { name: "Paused", exact: true }).waitFor({ timeout: 20_000 });
    expect(await row.textContent()).toContain(partner.id);
    expect(await row.textContent()).toContain(`${receiver.url}/health`);
    expect(await row.getByText("Closed").count()).toBe(1);
    await checkView(page, "webhooks-receiver-health");

    await row.getByRole("button", { name: `Resume ${config.config_id}` }).click();
    await session.notice("resumed");
    await row.getByRole("button", { name: `Pause ${config.config_id}` }).waitFor();
    await row.getByRole("cell", { name: "No", exact: true }).waitFor();
    const resumed = await platform.admin("GET", `/admin/webhook-receivers?partner_id=${partner.id}`);
    const resumedRow = resumed.json.receivers.find(
      (r: { config_id: string }) => r.config_id === config.config_id,
    );
    expect(resumedRow.paused).toBe(false);

    await row.getByRole("button", { name: `Pause ${config.config_id}` }).click();
    await session.notice("paused");
    await row.getByRole("cell", { name: "Paused", exact: true }).waitFor();
    const again = await platform.admin("GET", `/admin/webhook-receivers?partner_id=${partner.id}`);
    expect(
      again.json.receivers.find((r: { config_id: string }) => r.config_id === config.config_id).paused,
    ).toBe(true);
    // The filter of open circuits leaves it out: its circuit is closed.
    await page.getByLabel("Only open circuits").check();
    await health.getByRole("row").filter({ hasText: config.config_id }).waitFor({ state: "detached" });
  });
});
