/**
 * @payouts/client in a browser: the package built with its own tsconfig (Web APIs only) is loaded as ES
 * modules by headless Chromium (Debian's /usr/bin/chromium) through an import map, and runs a payout
 * against a started platform (same origin, through a pass-through proxy: the partner API sends no CORS
 * headers) and a webhook signature check with Web Crypto. Nothing Node-specific is there to lean on.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, normalize } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import { balanceOf, type FundedPartner, fundedPartner, setUpBrazil } from "./support/client-fixtures.js";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const PACKAGE_DIR = join(import.meta.dirname, "..", "..", "gateway", "client");
const require = createRequire(join(PACKAGE_DIR, "package.json"));

/** The page: a payout and a signature check, the outcome written as JSON into #out. */
function page(partner: FundedPartner): string {
  const script = `
import { createPayoutsClient, signWebhook, verifyWebhook } from "@payouts/client";
const out = document.getElementById("out");
try {
  const payouts = createPayoutsClient({ baseUrl: location.origin + "/api", clientId: ${JSON.stringify(partner.clientId)}, clientSecret: ${JSON.stringify(partner.clientSecret)} });
  const customer = await payouts.createCustomer({ name_first: "Ana", name_last: "Souza", country: "BR" });
  const lookup = await payouts.lookupPaymentCode({ customer_id: customer.customer_id, country_code: "BR", payment_method: "payment_key", payment_destination: "52998224725", payment_destination_code: "PIX" });
  await payouts.getQuotation({ tx_id: lookup.tx_id, amount: "54" });
  const payout = await payouts.executePayout({ tx_id: lookup.tx_id });
  let refused;
  try { await payouts.getTransaction("tx_unknown"); } catch (error) { refused = { name: error.name, status: error.status, code: error.code }; }
  const body = JSON.stringify({ tx_id: lookup.tx_id, status: "SUCCESS", event_id: "evt_1", event_type: "transaction.success", occurred_at: "2026-11-25T00:00:00Z" });
  const now = Date.now();
  const headers = await signWebhook(body, "browser-secret-0123456789", { id: "evt_1", timestamp: Math.floor(now / 1000) });
  const verified = await verifyWebhook(new TextEncoder().encode(body), new Headers(headers), "browser-secret-0123456789");
  out.textContent = JSON.stringify({ tx: payout.transaction, key: payout.idempotencyKey, refused, event: verified.event, hasProcess: typeof process, hasBuffer: typeof Buffer });
} catch (error) {
  out.textContent = JSON.stringify({ error: String(error && error.stack || error) });
}`;
  const imports = { "@payouts/client": "/client/index.js", "openapi-fetch": "/openapi-fetch/index.mjs" };
  return `<!doctype html><html><head><script type="importmap">${JSON.stringify({ imports })}</script></head>
<body><pre id="out">pending</pre><script type="module">${script}</script></body></html>`;
}

/** Serves the page, the built package and openapi-fetch, and passes /api/* through to the partner API. */
async function serve(platform: TestPlatform, buildDir: string, html: string): Promise<Server> {
  const openapiFetch = require.resolve("openapi-fetch").replace(/\.cjs$/, ".mjs");
  const server = createServer(async (req, res) => {
    const url = req.url ?? "/";
    if (url === "/") {
      res.writeHead(200, { "content-type": "text/html" }).end(html);
    } else if (url === "/openapi-fetch/index.mjs") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(openapiFetch));
    } else if (url.startsWith("/client/")) {
      const file = normalize(join(buildDir, url.slice("/client/".length)));
      if (!file.startsWith(buildDir) || !existsSync(file)) res.writeHead(404).end();
      else res.writeHead(200, { "content-type": "text/javascript" }).end(readFileSync(file));
    } else if (url.startsWith("/api/")) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const name of ["authorization", "content-type", "x-idempotency-key", "x-request-id"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers.set(name, value);
      }
      const answer = await fetch(`${platform.baseUrl}${url.slice("/api".length)}`, {
        method: req.method ?? "GET",
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

/** The page's DOM once its scripts have run (headless Chromium, virtual time). */
function dumpDom(url: string): Promise<string> {
  const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];
  const args = [...flags, "--disable-component-update", "--no-first-run", "--virtual-time-budget=30000"];
  return new Promise((resolve, reject) => {
    execFile(CHROMIUM, [...args, "--dump-dom", url], { timeout: 90_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

describe("@payouts/client in headless Chromium", () => {
  let platform: TestPlatform;
  let partner: FundedPartner;
  let server: Server;
  const buildDir = mkdtempSync(join(tmpdir(), "payouts-client-browser-"));

  beforeAll(async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`Chromium is not installed at ${CHROMIUM} (or set CHROMIUM_PATH)`);
    const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
    execFileSync(process.execPath, [
      tsc,
      "-p",
      join(PACKAGE_DIR, "tsconfig.build.json"),
      "--outDir",
      buildDir,
    ]);
    platform = await startTestPlatform({ env: { QUOTE_TTL_MS: "600000" } });
    await setUpBrazil(platform);
    partner = await fundedPartner(platform, "100");
    server = await serve(platform, buildDir, page(partner));
  }, 180_000);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await platform?.close();
    rmSync(buildDir, { recursive: true, force: true });
  });

  it("pays out, refuses with a typed error, and verifies a signature, with Web APIs only", async () => {
    const dom = await dumpDom(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    const text = /<pre id="out">([\s\S]*?)<\/pre>/.exec(dom)?.[1] ?? "";
    const outcome = JSON.parse(text.replaceAll("&quot;", '"').replaceAll("&amp;", "&"));
    expect(outcome.error).toBeUndefined();
    expect(outcome).toMatchObject({
      tx: { status: "PROCESSING", amount_usd: 10, fee: 0.45 },
      refused: { name: "PayoutsError", status: 404, code: "TRANSACTION_NOT_FOUND" },
      event: { event_type: "transaction.success", status: "SUCCESS" },
      hasProcess: "undefined",
      hasBuffer: "undefined",
    });
    expect(outcome.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(await balanceOf(platform, partner.partnerId)).toBe("89.55");
  }, 120_000);
});
