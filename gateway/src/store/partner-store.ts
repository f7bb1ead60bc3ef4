import type { Queryable } from "@payouts/platform/database/database";

export interface PartnerRow {
  partner_id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export interface AppRow {
  client_id: string;
  partner_id: string;
  secret_hash: string;
  preview_rate_limit_per_minute: number;
  created_at: Date;
  revoked_at: Date | null;
}

export async function insertPartner(db: Queryable, partnerId: string, name: string): Promise<PartnerRow> {
  const res = await db.query<PartnerRow>(
    "INSERT INTO gateway.partners (partner_id, name) VALUES ($1, $2) RETURNING *",
    [partnerId, name],
  );
  return res.rows[0]!;
}

export async function findPartner(db: Queryable, partnerId: string): Promise<PartnerRow | undefined> {
  const res = await db.query<PartnerRow>("SELECT * FROM gateway.partners WHERE partner_id = $1", [partnerId]);
  return res.rows[0];
}

export async function renamePartner(
  db: Queryable,
  partnerId: string,
  name: string,
): Promise<PartnerRow | undefined> {
  const res = await db.query<PartnerRow>(
    "UPDATE gateway.partners SET name = $2, updated_at = now() WHERE partner_id = $1 RETURNING *",
    [partnerId, name],
  );
  return res.rows[0];
}

export async function insertApp(
  db: Queryable,
  app: { clientId: string; partnerId: string; secretHash: string; previewRateLimitPerMinute: number },
): Promise<AppRow> {
  const res = await db.query<AppRow>(
    `INSERT INTO gateway.apps (client_id, partner_id, secret_hash, preview_rate_limit_per_minute)
     VALUES ($1, $2, $3, $4) RETURNING *`,
    [app.clientId, app.partnerId, app.secretHash, app.previewRateLimitPerMinute],
  );
  return res.rows[0]!;
}

export async function findApp(db: Queryable, clientId: string): Promise<AppRow | undefined> {
  const res = await db.query<AppRow>("SELECT * FROM gateway.apps WHERE client_id = $1", [clientId]);
  return res.rows[0];
}

/** Marks the app revoked; false when it does not exist under that partner. Idempotent. */
export async function revokeApp(db: Queryable, partnerId: string, clientId: string): Promise<boolean> {
  const res = await db.query(
    "UPDATE gateway.apps SET revoked_at = COALESCE(revoked_at, now()) WHERE client_id = $1 AND partner_id = $2",
    [clientId, partnerId],
  );
  return res.rowCount > 0;
}
