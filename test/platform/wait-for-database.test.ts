/**
 * A process started while PostgreSQL is down waits for it (services/runtime/src/cli.ts calls waitForDatabase before
 * anything else touches the database) instead of failing to start; other errors still fail at once.
 */
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { waitForDatabase } from "@payouts/platform/database/wait-for-database";
import { createLogger } from "@payouts/platform/logging/logger";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OwnPostgresServer, startOwnPostgresServer } from "../support/own-postgres-server.js";

const logger = createLogger({ service: "wait-test", level: "silent" });
let server: OwnPostgresServer;

beforeAll(async () => {
  server = await startOwnPostgresServer();
}, 120_000);

afterAll(() => {
  server?.destroy();
});

describe("waitForDatabase", () => {
  it("waits while the server is down and resolves once it is back", async () => {
    server.stop("fast");
    const db = createPgDatabase({ connectionString: server.url, reconnectBudgetMs: 200 });
    try {
      let ready = false;
      const waiting = waitForDatabase(db, logger).then(() => {
        ready = true;
      });
      await new Promise((r) => setTimeout(r, 2_500));
      expect(ready).toBe(false);
      server.start();
      await waiting;
      expect((await db.query("SELECT 1 AS one")).rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it("fails at once on an error waiting cannot fix", async () => {
    const db = createPgDatabase({ connectionString: server.url.replace(/\/postgres$/, "/no_such_db") });
    try {
      await expect(waitForDatabase(db, logger)).rejects.toMatchObject({ code: "3D000" });
    } finally {
      await db.close();
    }
  });
});
