import { ConfigError } from "@payouts/platform/config/env-config";
import { describe, expect, it } from "vitest";
import {
  ALL_SCHEMAS,
  DATABASE_USERS,
  embeddedRoleGrants,
  generateServiceDatabaseUrls,
  processDatabaseUrl,
  roleGrantsFromEnv,
} from "./database-roles.js";
import { allMigrations } from "./service-roles.js";

const MIGRATION = "postgres://owner:secret@db.internal:5432/payouts?sslmode=require";

describe("generateServiceDatabaseUrls", () => {
  it("gives each service a role of its own with a random password, on the migration URL's server and database", () => {
    const urls = generateServiceDatabaseUrls(MIGRATION, "prod");
    expect(Object.keys(urls).sort()).toEqual(
      Object.values(DATABASE_USERS)
        .map((u) => u.urlEnv)
        .sort(),
    );
    const webhooks = new URL(urls.WEBHOOKS_DATABASE_URL ?? "");
    expect([webhooks.username, webhooks.host, webhooks.pathname, webhooks.search]).toEqual([
      "prod_webhooks",
      "db.internal:5432",
      "/payouts",
      "?sslmode=require",
    ]);
    expect(webhooks.password.length).toBeGreaterThanOrEqual(32);
    expect(new URL(urls.SANDBOX_RAIL_DATABASE_URL ?? "").username).toBe("prod_sandbox_rail");
    expect(generateServiceDatabaseUrls(MIGRATION, "prod").WEBHOOKS_DATABASE_URL).not.toBe(
      urls.WEBHOOKS_DATABASE_URL,
    );
  });
});

describe("roleGrantsFromEnv", () => {
  it("turns each URL into its service's role, schema and password", () => {
    const urls = generateServiceDatabaseUrls(MIGRATION, "prod");
    const grants = roleGrantsFromEnv({ DATABASE_URL: MIGRATION, ...urls }, { requireAll: true });
    const ledger = grants.find((g) => g.schema === "ledger");
    expect(ledger?.role).toBe("prod_ledger");
    expect(ledger?.password).toBe(decodeURIComponent(new URL(urls.LEDGER_DATABASE_URL ?? "").password));
    expect(ledger?.appendOnlyTables).toEqual([
      "entries",
      "movements",
      "statement_days",
      "statement_day_entries",
      "statement_revision_entries",
      "batch_approvals",
    ]);
    expect(grants.find((g) => g.schema === "gateway")?.appendOnlyTables).toEqual(["audit_records"]);
    expect(grants.map((g) => g.schema).sort()).toEqual([
      "gateway",
      "ledger",
      "lookup",
      "pricing",
      "rail",
      "webhooks",
    ]);
  });

  it("requires every URL in production, and refuses the migration role or a role shared by two services", () => {
    expect(() => roleGrantsFromEnv({ DATABASE_URL: MIGRATION }, { requireAll: true })).toThrow(
      /WEBHOOKS_DATABASE_URL is required in production/,
    );
    expect(roleGrantsFromEnv({ DATABASE_URL: MIGRATION }, { requireAll: false })).toEqual([]);
    const urls = generateServiceDatabaseUrls(MIGRATION, "prod");
    const load = () =>
      roleGrantsFromEnv(
        {
          DATABASE_URL: MIGRATION,
          ...urls,
          LEDGER_DATABASE_URL: MIGRATION,
          PRICING_DATABASE_URL: urls.LOOKUP_DATABASE_URL,
        },
        { requireAll: true },
      );
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(/LEDGER_DATABASE_URL names the migration role owner/);
    expect(load).toThrow(/PRICING_DATABASE_URL and LOOKUP_DATABASE_URL name the same role prod_lookup/);
    expect(load).not.toThrow(/secret/);
  });
});

describe("embeddedRoleGrants", () => {
  it("gives the one-process mode the same append-only tables, the audit trail among them", () => {
    const gateway = embeddedRoleGrants().find((g) => g.schema === "gateway");
    expect(gateway).toEqual({
      role: "payouts_gateway",
      schema: "gateway",
      appendOnlyTables: ["audit_records"],
    });
  });
});

describe("processDatabaseUrl", () => {
  it("prefers the process's own URL over DATABASE_URL", () => {
    const env = { DATABASE_URL: MIGRATION, LEDGER_DATABASE_URL: "postgres://prod_ledger:x@db/payouts" };
    expect(processDatabaseUrl(env, "ledger")).toBe("postgres://prod_ledger:x@db/payouts");
    expect(processDatabaseUrl(env, "webhooks")).toBe(MIGRATION);
    expect(processDatabaseUrl({}, "gateway")).toBeUndefined();
  });
});

describe("DATABASE_USERS", () => {
  it("names every migrated schema once, so every schema has exactly one service role", async () => {
    const migrated = (await allMigrations()).map((set) => set.schema).sort();
    expect([...ALL_SCHEMAS].sort()).toEqual(migrated);
    // Loading every service package takes a few seconds on a busy machine.
  }, 30_000);
});
