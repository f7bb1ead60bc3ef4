import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";

/**
 * A fresh database on the shared test server, dropped by `drop()`; each test file gets its own. The
 * server is the one global-setup found; `serverUrl` names it instead (scripts run outside vitest).
 */
export async function createTestDatabase(
  serverUrl?: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = serverUrl ?? inject("databaseUrl");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        // Roles are server-wide: a test's own roles are named after its database (`<database>_<service>`).
        const roles = await c.query<{ rolname: string }>(
          "SELECT rolname FROM pg_roles WHERE starts_with(rolname, $1)",
          [`${name}_`],
        );
        for (const { rolname } of roles.rows) await c.query(`DROP ROLE IF EXISTS ${rolname}`);
      } finally {
        await c.end();
      }
    },
  };
}

export function kafkaBrokers(): string[] {
  return inject("kafkaBrokers")
    .split(",")
    .map((b) => b.trim());
}

/** A topic name no other test uses. */
export function uniqueTopic(prefix: string): string {
  return `${prefix}.${randomBytes(5).toString("hex")}`;
}
