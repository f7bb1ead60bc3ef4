import type { AddressInfo } from "node:net";
import { createLogger } from "@payouts/platform/logging/logger";
import { startEmbedded } from "@payouts/runtime/embedded-runtime";
import { describe, expect, it } from "vitest";
import {
  executePayout,
  fundedPartner,
  pendingTransaction,
  quoted,
  setUpCorridor,
} from "../ledger/support/payout-fixtures.js";
import { createTestDatabase } from "../support/infra.js";
import { freePort, startTestPlatform } from "../support/test-platform.js";

/** The embedded sandbox listens on loopback unless HOST says otherwise, and honours HOST. */
describe("the embedded sandbox's listen address", () => {
  it("is 127.0.0.1 for the partner and admin listeners when HOST is unset", async () => {
    const database = await createTestDatabase();
    const runtime = await startEmbedded({
      env: {
        DATABASE_URL: database.url,
        PORT: String(await freePort()),
        ADMIN_PORT: String(await freePort()),
        LOG_LEVEL: "silent",
      },
      logger: createLogger({ service: "test", level: "silent" }),
    });
    try {
      const { partnerApp, adminApp } = runtime.gateway;
      expect((partnerApp.server.address() as AddressInfo).address).toBe("127.0.0.1");
      expect((adminApp.server.address() as AddressInfo).address).toBe("127.0.0.1");
    } finally {
      await runtime.close();
      await database.drop();
    }
  });

  it("is HOST when set, for both listeners, and the sandbox rail calls the gateway back there", async () => {
    const platform = await startTestPlatform({ env: { HOST: "127.0.0.2" } });
    try {
      const { partnerApp, adminApp } = platform.runtime.gateway;
      expect((partnerApp.server.address() as AddressInfo).address).toBe("127.0.0.2");
      expect((adminApp.server.address() as AddressInfo).address).toBe("127.0.0.2");
      await setUpCorridor(platform);
      const partner = await fundedPartner(platform, "100");
      const txId = await pendingTransaction(platform, partner.partnerId);
      await quoted(platform, partner, txId);
      const executed = await executePayout(platform, partner, txId, "key-listen-host");
      expect(executed.status, executed.text).toBe(200);
      const settled = await platform.admin("POST", `/admin/sandbox/transactions/${txId}/settle`, {
        outcome: "SUCCESS",
      });
      expect(settled.json).toMatchObject({ tx_id: txId, delivered: true, status: "SUCCESS" });
    } finally {
      await platform.close();
    }
  });
});
