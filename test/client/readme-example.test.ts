/**
 * The payout example of gateway/client/README.md is gateway/client/examples/payout.ts verbatim, and it
 * runs: against a started platform whose sandbox rail settles payouts, with the example's receiver behind
 * a real HTTP server that the real webhook dispatcher calls.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { WebhookEvent } from "@payouts/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payOut, receiveNotification } from "../../gateway/client/examples/payout.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";
import {
  balanceOf,
  clientOf,
  type FundedPartner,
  fundedPartner,
  setUpBrazil,
} from "./support/client-fixtures.js";

const PACKAGE_DIR = join(import.meta.dirname, "..", "..", "gateway", "client");
const SECRET = "readme-example-secret-0123456789";

/** The fenced block between `<!-- example: path -->` and `<!-- /example -->`. */
function exampleBlock(readme: string, path: string): string | undefined {
  const start = readme.indexOf(`<!-- example: ${path} -->`);
  const end = readme.indexOf("<!-- /example -->", start);
  if (start < 0 || end < 0) return undefined;
  const block = readme.slice(start, end);
  return /```ts\n([\s\S]*)```\n$/.exec(block)?.[1];
}

/** An HTTP server handing each request to a Fetch-API handler, as Deno.serve or Bun.serve would. */
async function serveFetchHandler(handler: (request: Request) => Promise<Response>): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        for (const one of Array.isArray(value) ? value : [value ?? ""]) headers.append(name, one);
      }
      const request = new Request(`http://${req.headers.host}${req.url}`, {
        method: req.method ?? "POST",
        headers,
        body: Buffer.concat(chunks),
      });
      const response = await handler(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

describe("the README's payout example", () => {
  let platform: TestPlatform;
  let partner: FundedPartner;
  let receiver: Server;
  const events: WebhookEvent[] = [];

  beforeAll(async () => {
    platform = await startTestPlatform({ env: { SANDBOX_AUTO_SETTLE_MS: "300", QUOTE_TTL_MS: "600000" } });
    await setUpBrazil(platform);
    partner = await fundedPartner(platform, "100");
    receiver = await serveFetchHandler((request) =>
      receiveNotification(request, SECRET, async (event) => {
        events.push(event);
      }),
    );
  });
  afterAll(async () => {
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await platform?.close();
  });

  it("is examples/payout.ts verbatim", () => {
    const readme = readFileSync(join(PACKAGE_DIR, "README.md"), "utf8");
    const example = readFileSync(join(PACKAGE_DIR, "examples", "payout.ts"), "utf8");
    expect(exampleBlock(readme, "examples/payout.ts")).toBe(example);
  });

  it("pays out, polls to SUCCESS, and its receiver verifies the real dispatcher's notification", async () => {
    const port = (receiver.address() as AddressInfo).port;
    await clientOf(platform, partner).createWebhookConfig({
      url: `http://127.0.0.1:${port}/hooks`,
      secret: SECRET,
    });

    const settings = {
      baseUrl: platform.baseUrl,
      clientId: partner.clientId,
      clientSecret: partner.clientSecret,
    };
    const transaction = await payOut(settings, "order-1001");
    expect(transaction).toMatchObject({
      status: "SUCCESS",
      partner_transaction_id: "order-1001",
      currency: "BRL",
      amount: 100,
    });
    // 100 BRL at 5.4 = 18.518… USD, + 1.5 % + 0.30 USD, debited at full precision.
    expect(Number(await balanceOf(platform, partner.partnerId))).toBeCloseTo(
      100 - 18.5185185 * 1.015 - 0.3,
      6,
    );

    for (let i = 0; i < 200 && events.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(events).toEqual([
      expect.objectContaining({
        tx_id: transaction.tx_id,
        status: "SUCCESS",
        event_type: "transaction.success",
      }),
    ]);
    // The receiver answered 200 (verified), so the dispatcher logs the delivery as delivered.
    const client = clientOf(platform, partner);
    let log = await client.listWebhookDeliveries({ tx_id: transaction.tx_id });
    for (let i = 0; i < 100 && log.deliveries[0]?.status !== "delivered"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      log = await client.listWebhookDeliveries({ tx_id: transaction.tx_id });
    }
    expect(log.deliveries.map((d) => [d.event_type, d.status, d.last_status_code])).toEqual([
      ["transaction.success", "delivered", 200],
    ]);
  });
});
