import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApiResponse,
  type Credentials,
  startTestPlatform,
  type TestPlatform,
} from "../support/test-platform.js";

/**
 * The attack: someone who knows a partner's client_id (it travels in every request) but not its secret
 * sends failed logins for it, from as many addresses as it takes, to get the partner's own valid secret
 * answered 429. The gateway runs with its default throttle settings, behind one trusted proxy so the test
 * can speak from several addresses; every scenario starts from a state in which the gateway has no memory
 * of the partner's secret (a new app, a secret just added, an admin action that drops what it remembers).
 */
const from = (address: string) => ({ "x-forwarded-for": address });
const PARTNER_ADDRESS = "198.51.100.10";
const attackerAddresses = (subnet: number) => Array.from({ length: 7 }, (_, i) => `10.${subnet}.0.${i + 1}`);

describe("locking a partner out with failed logins for its client id", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      env: {
        TRUST_PROXY_HOPS: "1",
        // The defaults of a deployed gateway, spelled out: the test platform switches the throttle off.
        AUTH_FAILURES_PER_ADDRESS: "20",
        AUTH_FAILURE_WINDOW_MS: "60000",
      },
    });
  });
  afterAll(() => platform.close());

  const balance = (creds: Credentials, address: string): Promise<ApiResponse> =>
    platform.partner(creds, "GET", "/balance", undefined, from(address));

  /**
   * 140 failed logins for the client id, 20 from each of 7 addresses: the same wrong secret (refused from
   * the negative cache after the first) and fresh wrong ones. Returns how many were sent.
   */
  async function flood(clientId: string, subnet: number): Promise<number> {
    let sent = 0;
    for (const [a, address] of attackerAddresses(subnet).entries()) {
      for (let i = 0; i < 20; i++) {
        const clientSecret = i % 2 === 0 ? "cs_wrong_repeated" : `cs_wrong_${a}_${i}`;
        const res = await balance({ clientId, clientSecret }, address);
        expect([401, 429]).toContain(res.status);
        sent++;
      }
      // The attacker's own address is held back...
      const held = await balance({ clientId, clientSecret: "cs_wrong_again" }, address);
      expect(held.status).toBe(429);
      expect(held.json.code).toBe("RATE_LIMIT_EXCEEDED");
    }
    return sent;
  }

  it("still admits the valid secret of a new app, never seen by this gateway, after 100+ failures for it", async () => {
    const app = await platform.createPartner();
    expect(await flood(app.clientId, 1)).toBeGreaterThanOrEqual(100);
    const res = await balance(app, PARTNER_ADDRESS);
    expect(res.status).toBe(200);
    // From any other address of the partner's too.
    expect((await balance(app, "198.51.100.11")).status).toBe(200);
  });

  it("still admits both secrets during a rotation, after an admin action dropped what the gateway remembered", async () => {
    const app = await platform.createPartner();
    expect((await balance(app, PARTNER_ADDRESS)).status).toBe(200);
    const added = await platform.admin(
      "POST",
      `/admin/partners/${app.partnerId}/apps/${app.clientId}/secrets`,
    );
    expect(added.status).toBe(201);
    const next = { clientId: app.clientId, clientSecret: added.json.client_secret as string };
    expect(await flood(app.clientId, 2)).toBeGreaterThanOrEqual(100);
    expect((await balance(next, PARTNER_ADDRESS)).status).toBe(200);
    expect((await balance(app, PARTNER_ADDRESS)).status).toBe(200);
    expect((await balance(next, "198.51.100.12")).status).toBe(200);
  });
});
