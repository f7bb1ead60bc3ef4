import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrometheus } from "../observability/support/prometheus-text.js";
import { countingHasher } from "../support/counting-hasher.js";
import {
  type ApiResponse,
  type Credentials,
  startTestPlatform,
  type TestPlatform,
} from "../support/test-platform.js";

const from = (address: string) => ({ "x-forwarded-for": address });

function expect429(res: ApiResponse) {
  expect(res.status).toBe(429);
  expect(res.json.code).toBe("RATE_LIMIT_EXCEEDED");
  expect(res.json.request_id).toBe(res.headers.get("x-request-id"));
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

describe("failed-login throttling at the gateway (behind one trusted proxy)", () => {
  let platform: TestPlatform;
  const counter = countingHasher();

  beforeAll(async () => {
    platform = await startTestPlatform({
      env: {
        TRUST_PROXY_HOPS: "1",
        AUTH_FAILURES_PER_ADDRESS: "3",
        AUTH_FAILURE_WINDOW_MS: "60000",
        // No positive cache: every accepted request below is a real check.
        AUTH_CACHE_TTL_MS: "0",
      },
      secretHasher: counter.hasher,
    });
  });
  afterAll(() => platform.close());

  const wrong = (creds: Credentials, n: number) => ({
    clientId: creds.clientId,
    clientSecret: `cs_wrong_${n}`,
  });

  it("answers 429 with Retry-After to an address after its failures, without running scrypt", async () => {
    const target = await platform.createPartner();
    const bystander = await platform.createPartner();
    for (let i = 0; i < 3; i++) {
      expect(
        (await platform.partner(wrong(target, i), "GET", "/balance", undefined, from("203.0.113.7"))).status,
      ).toBe(401);
    }
    counter.take();
    expect429(await platform.partner(wrong(target, 9), "GET", "/balance", undefined, from("203.0.113.7")));
    expect429(
      await platform.partner(
        { clientId: "ci_unknown", clientSecret: "cs_x" },
        "GET",
        "/balance",
        undefined,
        from("203.0.113.7"),
      ),
    );
    expect(counter.take()).toBe(0);
    // Another address is not affected by this one's failures.
    expect(
      (await platform.partner(bystander, "GET", "/balance", undefined, from("198.51.100.4"))).status,
    ).toBe(200);
    expect((await platform.partner(target, "GET", "/balance", undefined, from("198.51.100.5"))).status).toBe(
      200,
    );
  });

  it("does not throttle a client id flooded from many addresses: only each flooding address is held back", async () => {
    const victim = await platform.createPartner();
    for (let i = 0; i < 5; i++) {
      for (let n = 0; n < 3; n++) {
        const res = await platform.partner(
          wrong(victim, 10 * i + n),
          "GET",
          "/balance",
          undefined,
          from(`203.0.113.${20 + i}`),
        );
        expect(res.status).toBe(401);
      }
      expect429(
        await platform.partner(wrong(victim, 99), "GET", "/balance", undefined, from(`203.0.113.${20 + i}`)),
      );
    }
    counter.take();
    // A fresh address is checked (and refused) rather than throttled for the others' failures...
    expect(
      (await platform.partner(wrong(victim, 7), "GET", "/balance", undefined, from("203.0.113.99"))).status,
    ).toBe(401);
    // ...and the partner's secret, never seen by this gateway before, gets in.
    expect((await platform.partner(victim, "GET", "/balance", undefined, from("198.51.100.10"))).status).toBe(
      200,
    );
    expect(counter.take()).toBe(3);
  });

  it("throttles previewQuotations' handler-side authentication the same way", async () => {
    const app = await platform.createPartner();
    const body = { amount: 100, currency: "USD" };
    for (let i = 0; i < 3; i++) {
      const res = await platform.partner(
        wrong(app, i),
        "POST",
        "/previewQuotations",
        body,
        from("203.0.113.50"),
      );
      expect(res.status).toBe(401);
    }
    expect429(
      await platform.partner(wrong(app, 3), "POST", "/previewQuotations", body, from("203.0.113.50")),
    );
  });
});

/** The current value of payouts_gateway_auth_outcomes_total per outcome, from the admin listener. */
async function authOutcomes(platform: TestPlatform): Promise<Record<string, number>> {
  const res = await fetch(`${platform.adminUrl}/metrics`);
  expect(res.status).toBe(200);
  const counts: Record<string, number> = {};
  for (const s of parsePrometheus(await res.text())) {
    if (s.name === "payouts_gateway_auth_outcomes_total") counts[s.labels.outcome!] = s.value;
  }
  return counts;
}

describe("failed-login throttling without a trusted proxy", () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startTestPlatform({
      env: { AUTH_FAILURES_PER_ADDRESS: "2" },
    });
  });
  afterAll(() => platform.close());

  it("ignores X-Forwarded-For, so rotating it does not escape the per-address limit, and counts each outcome", async () => {
    const app = await platform.createPartner();
    const before = await authOutcomes(platform);
    for (let i = 0; i < 2; i++) {
      const res = await platform.partner(
        { clientId: app.clientId, clientSecret: `cs_wrong_${i}` },
        "GET",
        "/balance",
        undefined,
        from(`203.0.113.${i}`),
      );
      expect(res.status).toBe(401);
    }
    expect429(
      await platform.partner(
        { clientId: app.clientId, clientSecret: "cs_wrong_9" },
        "GET",
        "/balance",
        undefined,
        from("203.0.113.200"),
      ),
    );
    const after = await authOutcomes(platform);
    expect((after.refused ?? 0) - (before.refused ?? 0)).toBe(2);
    expect((after.throttled ?? 0) - (before.throttled ?? 0)).toBe(1);
  });
});

describe("the cap on credential checks in progress", () => {
  let platform: TestPlatform;
  const counter = countingHasher();
  beforeAll(async () => {
    platform = await startTestPlatform({
      env: { AUTH_MAX_CONCURRENT_CHECKS: "1", AUTH_MAX_QUEUED_CHECKS: "0" },
      secretHasher: counter.hasher,
    });
  });
  afterAll(() => platform.close());

  it("answers 503 with Retry-After, unchecked, while the only slot is taken", async () => {
    const app = await platform.createPartner();
    const held = counter.hold();
    const first = platform.partner(app, "GET", "/balance");
    await held.started;
    counter.take();
    const busy = await platform.partner(
      { clientId: app.clientId, clientSecret: "cs_other" },
      "GET",
      "/balance",
    );
    expect(busy.status).toBe(503);
    expect(busy.json.code).toBe("SERVICE_UNAVAILABLE");
    expect(busy.headers.get("retry-after")).toBe("1");
    expect(counter.take()).toBe(0);
    held.release();
    expect((await first).status).toBe(200);
    expect((await platform.partner(app, "GET", "/balance")).status).toBe(200);
  });
});
