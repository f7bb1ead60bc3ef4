/**
 * Attack: the webhook dispatcher is the internet-facing service (it calls partners' URLs). An attacker who
 * takes it over holds its database credentials and tries to use them beyond its own rows: credit a
 * balance by inserting ledger entries, read or plant app secrets, bump a balance, create objects.
 *
 * On real PostgreSQL, `migrate` (run as the platform runs it, with each service's own
 * `<SERVICE>_DATABASE_URL`) creates one role per service. Connected as the dispatcher's role, every one of
 * those attempts is refused with SQLSTATE 42501 while the dispatcher's own work succeeds; every other
 * service's role is refused on the schemas not its own. The one-process mode acts as the same roles.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import type { Database } from "@payouts/platform/database/database";
import { serviceRoleProblems } from "@payouts/platform/database/service-roles";
import { generateEventSigningKeys } from "@payouts/platform/events/event-signature";
import { generateServiceCredentials } from "@payouts/platform/rpc/service-credentials";
import { ALL_SCHEMAS, DATABASE_USERS } from "@payouts/runtime/internal/database-roles";
import type { Client } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../e2e/support/distributed-topology.js";
import { useMigratedRoles } from "../support/migrated-roles.js";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/** A table of each schema, to try to read. */
const TABLE_OF: Record<string, string> = {
  gateway: "gateway.app_secrets",
  lookup: "lookup.customers",
  pricing: "pricing.fx_rates",
  ledger: "ledger.entries",
  webhooks: "webhooks.configs",
  rail: "rail.submissions",
};

const roles = useMigratedRoles();
const { connect } = roles;

async function refused(client: Client, sql: string): Promise<string | undefined> {
  try {
    await client.query(sql);
    return "succeeded";
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

beforeAll(() => {
  for (const url of Object.values(roles.urls)) {
    // The passwords are never printed.
    expect(roles.migrateOutput).not.toContain(decodeURIComponent(new URL(url).password));
  }
});

describe("the webhook dispatcher's database role", () => {
  it("cannot credit, read or plant secrets, move balances or create objects: SQLSTATE 42501 each time", async () => {
    const dispatcher = await connect(roles.urls.WEBHOOKS_DATABASE_URL ?? "");
    const attempts = {
      insertEntry: `INSERT INTO ledger.entries (movement_id, partner_id, kind, amount)
                      VALUES ('mov_evil', 'p_evil', 'balance', 1000000)`,
      readSecrets: "SELECT * FROM gateway.app_secrets",
      plantSecret: `INSERT INTO gateway.app_secrets (secret_id, client_id, secret_hash) VALUES ('s', 'evil', 'evil')`,
      updateBalance: "UPDATE ledger.accounts SET balance = balance + 1000000",
      createTableOwnSchema: "CREATE TABLE webhooks.evil (id int)",
      createTablePublic: "CREATE TABLE public.evil (id int)",
      createSchema: "CREATE SCHEMA evil",
      truncateOwnTable: "TRUNCATE webhooks.deliveries",
      dropOwnTable: "DROP TABLE webhooks.deliveries",
      rewriteMigrations: "DELETE FROM webhooks.schema_migrations",
    };
    const codes: Record<string, string | undefined> = {};
    for (const [name, sql] of Object.entries(attempts)) codes[name] = await refused(dispatcher, sql);
    expect(codes).toEqual(Object.fromEntries(Object.keys(attempts).map((name) => [name, "42501"])));
  });

  it("still does its own work on its own tables", async () => {
    const dispatcher = await connect(roles.urls.WEBHOOKS_DATABASE_URL ?? "");
    await dispatcher.query(
      `INSERT INTO webhooks.configs (config_id, partner_id, url, events)
         VALUES ('whc_own', 'p_own', 'https://receiver.example', '{transaction.success}')`,
    );
    await dispatcher.query("UPDATE webhooks.configs SET active = false WHERE config_id = 'whc_own'");
    const row = await dispatcher.query("SELECT active FROM webhooks.configs WHERE config_id = 'whc_own'");
    expect(row.rows).toEqual([{ active: false }]);
    await dispatcher.query(
      "INSERT INTO webhooks.processed_events (event_id, event_type, tx_id) VALUES ('ev_1', 'transaction.success', 'tx_1')",
    );
    await dispatcher.query("DELETE FROM webhooks.configs WHERE config_id = 'whc_own'");
    expect(await serviceRoleProblems(dispatcher, "webhooks", ALL_SCHEMAS)).toEqual([]);
  });
});

describe("every service role", () => {
  it("is refused on every schema but its own, and reads its own", async () => {
    const outcomes: string[] = [];
    for (const user of Object.values(DATABASE_USERS)) {
      const client = await connect(roles.urls[user.urlEnv] ?? "");
      for (const [schema, table] of Object.entries(TABLE_OF)) {
        const code = await refused(client, `SELECT 1 FROM ${table} LIMIT 1`);
        const expected = schema === user.schema ? "succeeded" : "42501";
        if (code !== expected) outcomes.push(`${user.urlEnv} on ${table}: ${code}, expected ${expected}`);
      }
      expect(await serviceRoleProblems(client, user.schema, ALL_SCHEMAS)).toEqual([]);
    }
    expect(outcomes).toEqual([]);
  });

  it("the ledger's may append to the book but not rewrite it", async () => {
    const ledger = await connect(roles.urls.LEDGER_DATABASE_URL ?? "");
    expect(await refused(ledger, "UPDATE ledger.entries SET amount = 0")).toBe("42501");
    expect(await refused(ledger, "DELETE FROM ledger.movements")).toBe("42501");
    expect(await refused(ledger, "UPDATE ledger.accounts SET balance = balance WHERE false")).toBe(
      "succeeded",
    );
  });

  it("the migration role is reported unfit to run a service", async () => {
    const migration = await connect(roles.ownerUrl);
    const problems = await serviceRoleProblems(migration, "webhooks", ALL_SCHEMAS);
    expect(problems.join("; ")).toMatch(/superuser/);
  });
});

describe("production mode", () => {
  it("refuses to start the dispatcher as the migration role, and starts it as its own", async () => {
    const run = (databaseUrl: string) =>
      spawnSync(
        process.execPath,
        [
          "--conditions=source",
          "--import",
          "tsx",
          join(REPO_ROOT, "services", "runtime", "src", "cli.ts"),
          "webhooks",
        ],
        {
          cwd: REPO_ROOT,
          env: {
            PATH: process.env.PATH ?? "",
            NODE_ENV: "production",
            DATABASE_URL: databaseUrl,
            SERVICE_CALLER_KEYS: generateServiceCredentials().callerKeys,
            WEBHOOK_SECRET_KEY: "a".repeat(64),
            EVENT_VERIFY_KEYS: generateEventSigningKeys().verifyKey,
            OTEL_SDK_DISABLED: "true",
            PORT: "0",
            METRICS_PORT: "0",
          },
          encoding: "utf8",
          // Long enough to reach the database check; a process that passes it keeps running until killed.
          timeout: 25_000,
        },
      );
    const asMigrationRole = run(roles.ownerUrl);
    expect(asMigrationRole.status).toBe(2);
    expect(asMigrationRole.stdout).toContain("must connect as its own database role (WEBHOOKS_DATABASE_URL");
    const asOwnRole = run(roles.urls.WEBHOOKS_DATABASE_URL ?? "");
    expect(asOwnRole.stdout).toContain("webhooks gRPC server listening");
    expect(asOwnRole.stdout).not.toContain("must connect as its own database role");
  }, 90_000);
});

describe("the one-process mode on PostgreSQL", () => {
  let platform: TestPlatform;
  const dbs: Record<string, Database> = {};

  beforeAll(async () => {
    platform = await startTestPlatform({
      instrument: {
        database: (db, user) => {
          dbs[user] = db;
          return db;
        },
      },
    });
  });
  afterAll(async () => {
    await platform?.close();
  });

  it("runs the dispatcher as its role: its own work succeeds, the ledger's tables are refused", async () => {
    const partner = await platform.createPartner();
    const config = await platform.partner(partner, "POST", "/webhookConfigs", {
      url: "https://receiver.example/partner",
      secret: "s".repeat(32),
      events: ["transaction.success"],
    });
    expect(config.status, config.text).toBe(201);
    const dispatcher = dbs["webhooks"];
    if (!dispatcher) throw new Error("the dispatcher's database was not seen");
    const who = await dispatcher.query<{ user: string }>('SELECT current_user AS "user"');
    expect(who.rows[0]?.user).toBe("payouts_webhooks");
    const error = await dispatcher
      .query(
        "INSERT INTO ledger.entries (movement_id, partner_id, kind, amount) VALUES ('m', 'p', 'balance', 1)",
      )
      .then(
        () => undefined,
        (e: { code?: string }) => e.code,
      );
    expect(error).toBe("42501");
  });
});
