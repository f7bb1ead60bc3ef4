import type { Database, Queryable } from "@payouts/platform/database/database";
import { firstRow } from "@payouts/platform/database/first-row";
import { newId } from "@payouts/platform/ids";

/**
 * How many secrets of one app may be active at once: the current one and its successor during a
 * rotation. A failed login is checked against this many hashes whatever the app, so its cost is fixed.
 */
export const MAX_ACTIVE_SECRETS_PER_APP = 2;

export interface PartnerRow {
  partner_id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export interface AppRow {
  client_id: string;
  partner_id: string;
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

export function findPartner(db: Queryable, partnerId: string): Promise<PartnerRow | undefined> {
  return firstRow<PartnerRow>(db, "SELECT * FROM gateway.partners WHERE partner_id = $1", [partnerId]);
}

/**
 * Records a change to the partner: its name when given, and `updated_at` whatever changed, since a change
 * to its pricing (kept by the pricing service) is a change to the partner too.
 */
export function touchPartner(
  db: Queryable,
  partnerId: string,
  name: string | undefined,
): Promise<PartnerRow | undefined> {
  return firstRow<PartnerRow>(
    db,
    "UPDATE gateway.partners SET name = COALESCE($2, name), updated_at = now() WHERE partner_id = $1 RETURNING *",
    [partnerId, name ?? null],
  );
}

export interface AppSecretRow {
  secret_id: string;
  client_id: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** An app and the hashes of its active secrets, newest first: what a credential check needs. */
export interface AppCredentials extends AppRow {
  secret_hashes: string[];
}

/** Creates the app with its first secret in one statement. */
export async function insertApp(
  db: Queryable,
  app: { clientId: string; partnerId: string; secretHash: string; previewRateLimitPerMinute: number },
): Promise<AppRow & { secret_id: string }> {
  const res = await db.query<AppRow & { secret_id: string }>(
    `WITH app AS (
       INSERT INTO gateway.apps (client_id, partner_id, preview_rate_limit_per_minute)
       VALUES ($1, $2, $4) RETURNING *
     ), secret AS (
       INSERT INTO gateway.app_secrets (secret_id, client_id, secret_hash)
       SELECT $5, client_id, $3 FROM app RETURNING secret_id
     )
     SELECT app.*, secret.secret_id FROM app, secret`,
    [app.clientId, app.partnerId, app.secretHash, app.previewRateLimitPerMinute, newId("sec")],
  );
  return res.rows[0]!;
}

export function findAppCredentials(db: Queryable, clientId: string): Promise<AppCredentials | undefined> {
  return firstRow<AppCredentials>(
    db,
    `SELECT a.*,
            COALESCE(array_agg(s.secret_hash ORDER BY s.created_at DESC, s.secret_id DESC)
                     FILTER (WHERE s.secret_id IS NOT NULL), '{}') AS secret_hashes
     FROM gateway.apps a
     LEFT JOIN gateway.app_secrets s ON s.client_id = a.client_id AND s.revoked_at IS NULL
     WHERE a.client_id = $1
     GROUP BY a.client_id`,
    [clientId],
  );
}

export type AddSecretOutcome =
  | { kind: "added"; secret: AppSecretRow }
  | { kind: "app_not_found" }
  | { kind: "app_revoked" }
  | { kind: "too_many_secrets" };

/**
 * Adds a secret to an active app of the partner, unless it already has MAX_ACTIVE_SECRETS_PER_APP. The
 * app row is locked so two concurrent additions cannot both pass the count.
 */
export function addAppSecret(
  db: Database,
  partnerId: string,
  clientId: string,
  secretHash: string,
): Promise<AddSecretOutcome> {
  return withLockedApp(db, partnerId, clientId, async (tx, app) => {
    if (!app) return { kind: "app_not_found" };
    if (app.revoked_at !== null) return { kind: "app_revoked" };
    const active = await tx.query(
      "SELECT 1 FROM gateway.app_secrets WHERE client_id = $1 AND revoked_at IS NULL",
      [clientId],
    );
    if (active.rowCount >= MAX_ACTIVE_SECRETS_PER_APP) return { kind: "too_many_secrets" };
    const res = await tx.query<AppSecretRow>(
      `INSERT INTO gateway.app_secrets (secret_id, client_id, secret_hash) VALUES ($1, $2, $3)
       RETURNING secret_id, client_id, created_at, revoked_at`,
      [newId("sec"), clientId, secretHash],
    );
    return { kind: "added", secret: res.rows[0]! };
  });
}

/** The app's secrets, newest first, without their hashes; undefined when the partner has no such app. */
export async function listAppSecrets(
  db: Queryable,
  partnerId: string,
  clientId: string,
): Promise<AppSecretRow[] | undefined> {
  const app = await db.query("SELECT 1 FROM gateway.apps WHERE client_id = $1 AND partner_id = $2", [
    clientId,
    partnerId,
  ]);
  if (app.rowCount === 0) return undefined;
  const res = await db.query<AppSecretRow>(
    `SELECT secret_id, client_id, created_at, revoked_at FROM gateway.app_secrets
     WHERE client_id = $1 ORDER BY created_at DESC, secret_id DESC`,
    [clientId],
  );
  return res.rows;
}

export type RevokeSecretOutcome =
  | { kind: "revoked" }
  | { kind: "secret_not_found" }
  | { kind: "last_secret" };

/**
 * Revokes one secret of the partner's app. Idempotent. The last active secret of an active app is
 * refused: revoking the app itself is the way to stop it working. Locks the app row like addAppSecret (withLockedApp).
 */
export function revokeAppSecret(
  db: Database,
  partnerId: string,
  clientId: string,
  secretId: string,
): Promise<RevokeSecretOutcome> {
  return withLockedApp(db, partnerId, clientId, async (tx, app) => {
    if (!app) return { kind: "secret_not_found" };
    const secrets = await tx.query<AppSecretRow>(
      "SELECT secret_id, client_id, created_at, revoked_at FROM gateway.app_secrets WHERE client_id = $1",
      [clientId],
    );
    const target = secrets.rows.find((s) => s.secret_id === secretId);
    if (!target) return { kind: "secret_not_found" };
    if (target.revoked_at !== null) return { kind: "revoked" };
    const othersActive = secrets.rows.some((s) => s.secret_id !== secretId && s.revoked_at === null);
    if (!othersActive && app.revoked_at === null) return { kind: "last_secret" };
    await tx.query("UPDATE gateway.app_secrets SET revoked_at = now() WHERE secret_id = $1", [secretId]);
    return { kind: "revoked" };
  });
}

/** Runs `fn` in a transaction that holds the partner's app row locked (undefined: the partner has no such app). */
function withLockedApp<T>(
  db: Database,
  partnerId: string,
  clientId: string,
  fn: (tx: Queryable, app: AppRow | undefined) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const app = await firstRow<AppRow>(
      tx,
      "SELECT * FROM gateway.apps WHERE client_id = $1 AND partner_id = $2 FOR UPDATE",
      [clientId, partnerId],
    );
    return fn(tx, app);
  });
}

export function findApp(db: Queryable, clientId: string): Promise<AppRow | undefined> {
  return firstRow<AppRow>(db, "SELECT * FROM gateway.apps WHERE client_id = $1", [clientId]);
}

/** Marks the app revoked; false when it does not exist under that partner. Idempotent. */
export async function revokeApp(db: Queryable, partnerId: string, clientId: string): Promise<boolean> {
  const res = await db.query(
    "UPDATE gateway.apps SET revoked_at = COALESCE(revoked_at, now()) WHERE client_id = $1 AND partner_id = $2",
    [clientId, partnerId],
  );
  return res.rowCount > 0;
}
