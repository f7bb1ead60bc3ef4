import pg from "pg";

/** The settings a commit's durability depends on, plus the WAL level (context for the reader). */
export const DURABILITY_SETTINGS = ["fsync", "synchronous_commit", "full_page_writes"] as const;
const REPORTED_SETTINGS = [...DURABILITY_SETTINGS, "wal_level"] as const;

/** Settings as the server reports them (`SHOW`), e.g. `{ fsync: "on", ..., wal_level: "replica" }`. */
export type PostgresSettings = Readonly<Record<(typeof REPORTED_SETTINGS)[number], string>>;

/** Reads the settings back from the running server: what it does, not what it was asked to do. */
export async function readPostgresSettings(serverUrl: string): Promise<PostgresSettings> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const res = await client.query<{ name: string; setting: string }>(
      "SELECT name, setting FROM pg_settings WHERE name = ANY($1)",
      [[...REPORTED_SETTINGS]],
    );
    const found = new Map(res.rows.map((r) => [r.name, r.setting]));
    return Object.fromEntries(
      REPORTED_SETTINGS.map((n) => [n, found.get(n) ?? "unknown"]),
    ) as PostgresSettings;
  } finally {
    await client.end();
  }
}

/** The durability settings that are not at PostgreSQL's durable default ("on"), e.g. `["fsync"]`. */
export function notDurable(settings: PostgresSettings): string[] {
  return DURABILITY_SETTINGS.filter((name) => settings[name] !== "on");
}

/** "fsync=on, synchronous_commit=on, full_page_writes=on, wal_level=replica (durable)". */
export function describePostgresSettings(settings: PostgresSettings): string {
  const listed = REPORTED_SETTINGS.map((name) => `${name}=${settings[name]}`).join(", ");
  const off = notDurable(settings);
  return `${listed} (${off.length === 0 ? "durable" : `NOT durable: ${off.join(", ")} not on`})`;
}
