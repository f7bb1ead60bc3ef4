/**
 * A fresh database migrated as the platform migrates it, with one login role per service, for tests that
 * act as one service's role. Registers its own beforeAll/afterAll: call it at the top of a test file.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { generateServiceDatabaseUrls } from "@payouts/runtime/internal/database-roles";
import pg from "pg";
import { afterAll, beforeAll, expect } from "vitest";
import { REPO_ROOT } from "../e2e/support/distributed-topology.js";
import { createTestDatabase } from "./infra.js";

export interface MigratedRoles {
  /** Each service's `<SERVICE>_DATABASE_URL`, as `migrate` created its role; set once beforeAll ran. */
  readonly urls: Readonly<Record<string, string>>;
  /** The owner's URL of the database. */
  readonly ownerUrl: string;
  /** The output `migrate` printed. */
  readonly migrateOutput: string;
  /** A client connected to `url`, closed after the file's tests. */
  connect(url: string): Promise<pg.Client>;
}

export function useMigratedRoles(): MigratedRoles {
  let database: { url: string; drop: () => Promise<void> } | undefined;
  const clients: pg.Client[] = [];
  const state = { urls: {} as Record<string, string>, ownerUrl: "", migrateOutput: "" };

  beforeAll(async () => {
    database = await createTestDatabase();
    state.ownerUrl = database.url;
    // Roles are server-wide: named after this test's database so that nothing else shares them.
    state.urls = generateServiceDatabaseUrls(database.url, new URL(database.url).pathname.slice(1));
    const migrate = spawnSync(
      process.execPath,
      [
        "--conditions=source",
        "--import",
        "tsx",
        join(REPO_ROOT, "services", "runtime", "src", "cli.ts"),
        "migrate",
      ],
      {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? "", DATABASE_URL: database.url, LOG_LEVEL: "info", ...state.urls },
        encoding: "utf8",
        timeout: 120_000,
      },
    );
    state.migrateOutput = `${migrate.stdout}${migrate.stderr}`;
    expect(migrate.status, state.migrateOutput).toBe(0);
  }, 180_000);

  afterAll(async () => {
    for (const client of clients) await client.end();
    await database?.drop();
  });

  return {
    get urls() {
      return state.urls;
    },
    get ownerUrl() {
      return state.ownerUrl;
    },
    get migrateOutput() {
      return state.migrateOutput;
    },
    async connect(url: string) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      clients.push(client);
      return client;
    },
  };
}

/** The error message of `sql`, or "succeeded". */
export async function attempt(client: pg.Client, sql: string): Promise<string> {
  try {
    await client.query(sql);
    return "succeeded";
  } catch (error) {
    return (error as Error).message;
  }
}
