/**
 * An idempotent replay survives a restart: the whole platform (gateway and ledger) is stopped after a
 * payout and started again on the same PostgreSQL database; the same key and body get the first response
 * byte for byte, and the balance was debited once — and an admin balance credit's key is replayed the same
 * way, credited once.
 */

import { createLogger } from "@payouts/platform/logging/logger";
import { type EmbeddedHandle, startEmbedded } from "@payouts/runtime/embedded-runtime";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/infra.js";
import { ADMIN_TOKEN, freePort, type TestPlatform } from "../support/test-platform.js";
import { pendingTransaction, setUpCorridor } from "./support/payout-fixtures.js";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/**
 * Starts the platform on fresh ports. A port probed free can still be taken by another process before the
 * listener binds it: such a start is retried on new ports, as an operator would restart it.
 */
async function boot(databaseUrl: string): Promise<EmbeddedHandle> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await bootOnce(databaseUrl);
    } catch (error) {
      if (attempt >= 3 || (error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
    }
  }
}

async function bootOnce(databaseUrl: string): Promise<EmbeddedHandle> {
  return startEmbedded({
    env: {
      DATABASE_URL: databaseUrl,
      PORT: String(await freePort()),
      ADMIN_PORT: String(await freePort()),
      HOST: "127.0.0.1",
      ADMIN_TOKEN,
      RAIL_CALLBACK_SECRET: "test-rail-callback-secret-of-32-bytes",
      SANDBOX_AUTO_SETTLE_MS: "0",
      LOG_LEVEL: "silent",
    },
    logger: createLogger({ service: "restart-test", level: "silent" }),
  });
}

/** Just enough of TestPlatform over a runtime for the fixtures. */
function over(runtime: EmbeddedHandle, creds = { clientId: "", clientSecret: "" }) {
  const call = async (
    port: number,
    auth: string,
    method: string,
    path: string,
    body?: unknown,
    headers = {},
  ) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: {
        authorization: auth,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
  };
  const basic = `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString("base64")}`;
  return {
    runtime,
    admin: (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      call(runtime.gateway.adminPort, `Bearer ${ADMIN_TOKEN}`, method, path, body, headers),
    partner: (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
      call(runtime.gateway.partnerPort, basic, method, path, body, headers),
  };
}

describe("replay after a restart", () => {
  it("answers the same bytes with Idempotent-Replayed and debits (and credits) once", async () => {
    const database = await createTestDatabase();
    cleanups.push(database.drop);
    const first = await boot(database.url);
    const admin = over(first);
    await setUpCorridor(admin as unknown as TestPlatform);
    const partner = await admin.admin("POST", "/admin/partners", {
      name: "Restart",
      supported_currencies: ["NGN"],
      fees: { percent: "1.5", fixed_usd: "0.30" },
    });
    const partnerId: string = partner.json.partner_id;
    const app = await admin.admin("POST", `/admin/partners/${partnerId}/apps`, {});
    const creds = { clientId: app.json.client_id, clientSecret: app.json.client_secret };
    const creditPath = `/admin/partners/${partnerId}/balance/credits`;
    const creditKey = { "X-Idempotency-Key": "restart-credit" };
    const credited = await admin.admin("POST", creditPath, { amount_usd: "100", reference: "r" }, creditKey);
    expect(credited.status).toBe(201);
    const txId = await pendingTransaction(admin as unknown as TestPlatform, partnerId);
    const before = over(first, creds);
    expect((await before.partner("POST", "/getQuotation", { tx_id: txId, amount: 15000 })).status).toBe(200);
    const original = await before.partner(
      "POST",
      "/executePayout",
      { tx_id: txId },
      { "X-Idempotency-Key": "restart-1" },
    );
    expect(original.status).toBe(200);
    await first.close();

    const second = await boot(database.url);
    cleanups.push(() => second.close());
    const after = over(second, creds);
    const replay = await after.partner(
      "POST",
      "/executePayout",
      { tx_id: txId },
      { "X-Idempotency-Key": "restart-1" },
    );
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.text).toBe(original.text);
    const balance = await after.admin("GET", `/admin/partners/${partnerId}/balance`);
    expect(balance.json.balance_usd).toBe("89.55");

    // The admin credit's key survives the restart too: its first answer (balance 100), credited once.
    const creditReplay = await after.admin(
      "POST",
      creditPath,
      { amount_usd: "100", reference: "r" },
      creditKey,
    );
    expect(creditReplay.status).toBe(201);
    expect(creditReplay.headers.get("idempotent-replayed")).toBe("true");
    expect(creditReplay.text).toBe(credited.text);
    expect((await after.admin("GET", `/admin/partners/${partnerId}/balance`)).json.balance_usd).toBe("89.55");
  });
});
