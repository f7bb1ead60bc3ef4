import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GATEWAY_MIGRATIONS } from "@payouts/gateway/edge";
import {
  type CredentialVerifierOptions,
  createCredentialVerifier,
} from "@payouts/gateway/internal/auth/credential-verifier";
import { hashSecret, verifySecret } from "@payouts/gateway/internal/auth/secret-hash";
import {
  addAppSecret,
  findAppCredentials,
  insertApp,
  insertPartner,
  MAX_ACTIVE_SECRETS_PER_APP,
  revokeApp,
} from "@payouts/gateway/internal/store/partner-store";
import type { Queryable } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { countingHasher } from "../support/counting-hasher.js";
import { createTestDatabase } from "../support/infra.js";

describe("credential verifier on real PostgreSQL", () => {
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: ReturnType<typeof createPgDatabase>;
  let t: number;
  const now = () => t;
  let counter: ReturnType<typeof countingHasher>;
  let seq = 0;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = createPgDatabase({ connectionString: testDb.url, maxConnections: 4 });
    await migrate(db, GATEWAY_MIGRATIONS);
    await insertPartner(db, "ptr_v", "Verifier partner");
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });
  beforeEach(() => {
    t = 1_000_000_000;
    counter = countingHasher();
  });

  async function newApp(secret = `cs_secret_${++seq}`) {
    const clientId = `ci_v${++seq}`;
    await insertApp(db, {
      clientId,
      partnerId: "ptr_v",
      secretHash: await hashSecret(secret),
      previewRateLimitPerMinute: 60,
    });
    return { clientId, secret };
  }
  const verifier = (options: CredentialVerifierOptions = {}) =>
    createCredentialVerifier(db, { hasher: counter.hasher, now, ...options });

  it("spends the same number of scrypt runs on unknown ids, revoked apps and wrong secrets", async () => {
    const v = verifier();
    const single = await newApp();
    const rotated = await newApp();
    await addAppSecret(db, "ptr_v", rotated.clientId, await hashSecret("cs_second"));
    const revoked = await newApp();
    await revokeApp(db, "ptr_v", revoked.clientId);
    const costs = [];
    for (const [clientId, secret] of [
      ["ci_does_not_exist", "cs_guess"],
      [single.clientId, "cs_wrong"],
      [rotated.clientId, "cs_wrong"],
      [revoked.clientId, revoked.secret],
    ] as const) {
      expect((await v.verify(clientId, secret, `198.51.100.${++seq}`)).kind).toBe("refused");
      costs.push(counter.take());
    }
    expect(costs).toEqual([
      MAX_ACTIVE_SECRETS_PER_APP,
      MAX_ACTIVE_SECRETS_PER_APP,
      MAX_ACTIVE_SECRETS_PER_APP,
      MAX_ACTIVE_SECRETS_PER_APP,
    ]);
    expect((await v.verify(single.clientId, single.secret, "198.51.100.1")).kind).toBe("ok");
    expect(counter.take()).toBe(1);
  });

  it("refuses a recently refused (client id, secret) again without scrypt, until the negative TTL", async () => {
    const v = verifier({ negativeTtlMs: 30_000, failuresPerAddress: 0 });
    const app = await newApp();
    expect((await v.verify(app.clientId, "cs_wrong", "192.0.2.1")).kind).toBe("refused");
    expect(counter.take()).toBe(MAX_ACTIVE_SECRETS_PER_APP);
    expect((await v.verify(app.clientId, "cs_wrong", "192.0.2.2")).kind).toBe("refused");
    expect((await v.verify("ci_nobody", "cs_wrong", "192.0.2.2")).kind).toBe("refused");
    expect(counter.take()).toBe(MAX_ACTIVE_SECRETS_PER_APP);
    expect((await v.verify("ci_nobody", "cs_wrong", "192.0.2.2")).kind).toBe("refused");
    expect(counter.take()).toBe(0);
    t += 30_000;
    expect((await v.verify(app.clientId, "cs_wrong", "192.0.2.1")).kind).toBe("refused");
    expect(counter.take()).toBe(MAX_ACTIVE_SECRETS_PER_APP);
    expect((await v.verify(app.clientId, app.secret, "192.0.2.1")).kind).toBe("ok");
  });

  it("throttles an address after its failures, before any scrypt, and not other addresses", async () => {
    const v = verifier({ failuresPerAddress: 3, failureWindowMs: 60_000 });
    const app = await newApp();
    const victim = await newApp();
    for (let i = 0; i < 3; i++) {
      expect((await v.verify(app.clientId, `cs_guess_${i}`, "203.0.113.9")).kind).toBe("refused");
      t += 10_000;
    }
    counter.take();
    expect(await v.verify(victim.clientId, "cs_guess_x", "203.0.113.9")).toEqual({
      kind: "throttled",
      retryAfterSeconds: 30,
    });
    expect(await v.verify(app.clientId, app.secret, "203.0.113.9")).toEqual({
      kind: "throttled",
      retryAfterSeconds: 30,
    });
    expect(counter.take()).toBe(0);
    expect((await v.verify(victim.clientId, victim.secret, "198.51.100.20")).kind).toBe("ok");
    t += 30_000;
    expect((await v.verify(app.clientId, app.secret, "203.0.113.9")).kind).toBe("ok");
  });

  it("never throttles a client id for failures from other addresses, even with no memory of its secret", async () => {
    const v = verifier({ cacheTtlMs: 0, failuresPerAddress: 3, failureWindowMs: 60_000 });
    const victim = await newApp();
    // A flood of wrong secrets for the victim's client id from many addresses, each up to its own limit.
    for (let a = 0; a < 8; a++) {
      for (let i = 0; i < 3; i++) {
        expect((await v.verify(victim.clientId, `cs_guess_${a}_${i}`, `203.0.113.${a}`)).kind).toBe(
          "refused",
        );
      }
      expect((await v.verify(victim.clientId, "cs_guess_more", `203.0.113.${a}`)).kind).toBe("throttled");
    }
    // The partner's secret, never verified by this verifier, gets in from its own address at once.
    expect((await v.verify(victim.clientId, victim.secret, "198.51.100.1")).kind).toBe("ok");
    // So does a brand-new secret of a rotation.
    await addAppSecret(db, "ptr_v", victim.clientId, await hashSecret("cs_brand_new"));
    expect((await v.verify(victim.clientId, "cs_brand_new", "198.51.100.2")).kind).toBe("ok");
  });

  it("lets a known secret pass the throttles only for the known-good TTL", async () => {
    const v = verifier({
      cacheTtlMs: 1_000,
      knownGoodTtlMs: 10_000,
      failuresPerAddress: 1,
      failureWindowMs: 3_600_000,
    });
    const app = await newApp();
    expect((await v.verify(app.clientId, app.secret, "192.0.2.50")).kind).toBe("ok");
    expect((await v.verify(app.clientId, "cs_wrong", "192.0.2.50")).kind).toBe("refused");
    t += 5_000;
    expect((await v.verify(app.clientId, app.secret, "192.0.2.50")).kind).toBe("ok");
    t += 15_001;
    expect((await v.verify(app.clientId, app.secret, "192.0.2.50")).kind).toBe("throttled");
  });

  it("stops treating a secret as known good once the database refuses it (revoked elsewhere)", async () => {
    const v = verifier({ cacheTtlMs: 0, failuresPerAddress: 1 });
    const app = await newApp();
    expect((await v.verify(app.clientId, app.secret, "192.0.2.55")).kind).toBe("ok");
    // Revoked by another gateway replica: this one is not told.
    await revokeApp(db, "ptr_v", app.clientId);
    expect((await v.verify(app.clientId, app.secret, "192.0.2.55")).kind).toBe("refused");
    counter.take();
    expect((await v.verify(app.clientId, app.secret, "192.0.2.55")).kind).toBe("throttled");
    expect(counter.take()).toBe(0);
  });

  it("counts attempts sent at once against the limit before their checks end", async () => {
    const v = verifier({ failuresPerAddress: 2 });
    const held = counter.hold();
    const attempts = [0, 1, 2, 3, 4].map((i) => v.verify(`ci_burst_${i}`, `cs_burst_${i}`, "203.0.113.120"));
    await held.started;
    held.release();
    const kinds = (await Promise.all(attempts)).map((o) => o.kind).sort();
    expect(kinds).toEqual(["refused", "refused", "throttled", "throttled", "throttled"]);
    expect(counter.take()).toBe(2 * MAX_ACTIVE_SECRETS_PER_APP);
  });

  it("shares one check among identical logins sent at once, and does not count them as failures", async () => {
    const v = verifier({ failuresPerAddress: 2 });
    const app = await newApp();
    const held = counter.hold();
    const burst = Array.from({ length: 20 }, () => v.verify(app.clientId, app.secret, "198.51.100.130"));
    await held.started;
    held.release();
    expect((await Promise.all(burst)).every((o) => o.kind === "ok")).toBe(true);
    expect(counter.take()).toBe(1);
    // Nothing was counted against the address or the client: two failures are still allowed.
    expect((await v.verify(app.clientId, "cs_wrong_1", "198.51.100.130")).kind).toBe("refused");
    expect((await v.verify(app.clientId, "cs_wrong_2", "198.51.100.130")).kind).toBe("refused");
    expect((await v.verify(app.clientId, "cs_wrong_3", "198.51.100.130")).kind).toBe("throttled");
  });

  it("caches both active secrets of a rotating app", async () => {
    const v = verifier();
    const app = await newApp();
    await addAppSecret(db, "ptr_v", app.clientId, await hashSecret("cs_next"));
    for (let i = 0; i < 3; i++) {
      expect((await v.verify(app.clientId, app.secret, "192.0.2.60")).kind).toBe("ok");
      expect((await v.verify(app.clientId, "cs_next", "192.0.2.60")).kind).toBe("ok");
    }
    // The newest secret is checked first: 1 run for it, 2 for the older one, then none from the cache.
    expect(counter.take()).toBe(3);
  });

  it("does not cache an app that forget() revoked while its scrypt check was under way", async () => {
    const v = verifier();
    const app = await newApp();
    const held = counter.hold();
    const racing = v.verify(app.clientId, app.secret, "192.0.2.70");
    await held.started;
    await revokeApp(db, "ptr_v", app.clientId);
    v.forget(app.clientId);
    held.release();
    // The check read the app before the revocation and answers as of that read...
    expect((await racing).kind).toBe("ok");
    // ...but cached nothing: the next request goes to the database and is refused.
    expect((await v.verify(app.clientId, app.secret, "192.0.2.70")).kind).toBe("refused");
  });

  it("runs at most maxConcurrentChecks checks, queues maxQueuedChecks with known-good secrets first, refuses the rest unchecked", async () => {
    // Counts finished database reads, to know when the queued checks have reached the gate.
    let reads = 0;
    const countedDb: Queryable = {
      query: async (sql, params) => {
        const res = await db.query(sql, params);
        reads++;
        return res as never;
      },
      exec: (sql) => db.exec(sql),
    };
    const v = createCredentialVerifier(countedDb, {
      hasher: counter.hasher,
      now,
      cacheTtlMs: 0,
      maxConcurrentChecks: 1,
      maxQueuedChecks: 2,
    });
    const partner = await newApp();
    expect((await v.verify(partner.clientId, partner.secret, "198.51.100.90")).kind).toBe("ok");
    counter.order.length = 0;
    const held = counter.hold();
    const flood1 = v.verify("ci_flood_1", "cs_flood_1", "203.0.113.91");
    await held.started;
    const readsBefore = reads;
    const flood2 = v.verify("ci_flood_2", "cs_flood_2", "203.0.113.92");
    const known = v.verify(partner.clientId, partner.secret, "198.51.100.90");
    while (reads < readsBefore + 2) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(await v.verify("ci_flood_3", "cs_flood_3", "203.0.113.93")).toEqual({ kind: "busy" });
    held.release();
    expect((await flood1).kind).toBe("refused");
    expect((await known).kind).toBe("ok");
    expect((await flood2).kind).toBe("refused");
    expect(counter.order).toEqual(["cs_flood_1", "cs_flood_1", partner.secret, "cs_flood_2", "cs_flood_2"]);
  });

  it("does not let a refusal cached across forget() outlive a secret change", async () => {
    const v = verifier();
    const app = await newApp();
    expect((await v.verify(app.clientId, "cs_soon_valid", "192.0.2.80")).kind).toBe("refused");
    await addAppSecret(db, "ptr_v", app.clientId, await hashSecret("cs_soon_valid"));
    v.forget(app.clientId);
    expect((await v.verify(app.clientId, "cs_soon_valid", "192.0.2.80")).kind).toBe("ok");
  });
});

describe("migration 002: secrets move to app_secrets", () => {
  let testDb: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: ReturnType<typeof createPgDatabase>;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = createPgDatabase({ connectionString: testDb.url, maxConnections: 2 });
  });
  afterAll(async () => {
    await db.close();
    await testDb.drop();
  });

  it("keeps every existing app's secret working", async () => {
    const onlyFirst = mkdtempSync(join(tmpdir(), "gateway-001-"));
    copyFileSync(join(GATEWAY_MIGRATIONS.dir, "001_partners.sql"), join(onlyFirst, "001_partners.sql"));
    await migrate(db, { schema: "gateway", dir: onlyFirst });
    await db.query("INSERT INTO gateway.partners (partner_id, name) VALUES ('ptr_old', 'Old')");
    await db.query(
      `INSERT INTO gateway.apps (client_id, partner_id, secret_hash, preview_rate_limit_per_minute)
       VALUES ('ci_old', 'ptr_old', $1, 60)`,
      [await hashSecret("cs_before_rotation")],
    );
    expect(await migrate(db, GATEWAY_MIGRATIONS)).toContain("002_app_secrets.sql");
    const creds = await findAppCredentials(db, "ci_old");
    expect(creds?.secret_hashes).toHaveLength(1);
    expect(await verifySecret("cs_before_rotation", creds!.secret_hashes[0]!)).toBe(true);
    const columns = await db.query(
      "SELECT 1 FROM information_schema.columns WHERE table_schema = 'gateway' AND column_name = 'secret_hash' AND table_name = 'apps'",
    );
    expect(columns.rowCount).toBe(0);
  });
});
