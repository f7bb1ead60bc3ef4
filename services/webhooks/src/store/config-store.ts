import type { Queryable } from "@payouts/platform/database/database";
import { firstRow } from "@payouts/platform/database/first-row";

/** A receiver configuration as stored; secrets stay sealed (see secret-box.ts). */
export interface ConfigRow {
  readonly config_id: string;
  readonly partner_id: string;
  readonly url: string;
  readonly events: string[];
  readonly active: boolean;
  readonly disabled_reason: string | null;
  /** Switched off by an operator (migration 009): the partner cannot switch it back on. */
  readonly disabled_by_operator: boolean;
  readonly secret_sealed: string | null;
  /** A rotated-out secret in its grace period (migration 007); both set or both null. */
  readonly previous_secret_sealed: string | null;
  readonly previous_secret_expires_at: Date | null;
  readonly basic_auth_username: string | null;
  readonly basic_auth_sealed: string | null;
  readonly created_at: Date;
  readonly updated_at: Date;
}

/**
 * Every column the partner's calls write; an update writes the whole new state read-modified inside its
 * transaction. `disabled_by_operator` is the operator's to write (operator-store.ts setConfigActive).
 */
export type ConfigState = Omit<ConfigRow, "created_at" | "updated_at" | "disabled_by_operator">;

export const COLUMNS = `config_id, partner_id, url, events, active, disabled_reason, secret_sealed,
  basic_auth_username, basic_auth_sealed, created_at, updated_at, previous_secret_sealed,
  previous_secret_expires_at, disabled_by_operator`;

export async function insertConfig(db: Queryable, state: ConfigState, now: Date): Promise<ConfigRow> {
  const res = await db.query<ConfigRow>(
    `INSERT INTO webhooks.configs (config_id, partner_id, url, events, active, disabled_reason, secret_sealed,
       basic_auth_username, basic_auth_sealed, previous_secret_sealed, previous_secret_expires_at, created_at,
       updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
     RETURNING ${COLUMNS}`,
    [...stateParams(state), now],
  );
  return res.rows[0]!;
}

export async function updateConfig(db: Queryable, state: ConfigState, now: Date): Promise<ConfigRow> {
  const res = await db.query<ConfigRow>(
    `UPDATE webhooks.configs SET url = $3, events = $4, active = $5, disabled_reason = $6, secret_sealed = $7,
       basic_auth_username = $8, basic_auth_sealed = $9, previous_secret_sealed = $10,
       previous_secret_expires_at = $11, updated_at = $12
     WHERE config_id = $1 AND partner_id = $2
     RETURNING ${COLUMNS}`,
    [...stateParams(state), now],
  );
  return res.rows[0]!;
}

function stateParams(state: ConfigState): unknown[] {
  return [
    state.config_id,
    state.partner_id,
    state.url,
    state.events,
    state.active,
    state.disabled_reason,
    state.secret_sealed,
    state.basic_auth_username,
    state.basic_auth_sealed,
    state.previous_secret_sealed,
    state.previous_secret_expires_at,
  ];
}

/** One partner's configuration; another partner's id is simply not found. `lock` for read-modify-write. */
export function findConfig(
  db: Queryable,
  partnerId: string,
  configId: string,
  options: { lock?: boolean } = {},
): Promise<ConfigRow | undefined> {
  return firstRow<ConfigRow>(
    db,
    `SELECT ${COLUMNS} FROM webhooks.configs WHERE partner_id = $1 AND config_id = $2
     ${options.lock ? "FOR UPDATE" : ""}`,
    [partnerId, configId],
  );
}

/**
 * Serialises configuration changes of one partner until the transaction ends, so a count checked in it
 * stays true until the insert commits (two concurrent creates cannot both take the last place).
 */
export async function lockPartnerConfigs(tx: Queryable, partnerId: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`webhooks.configs/${partnerId}`]);
}

export async function countConfigs(db: Queryable, partnerId: string): Promise<number> {
  const res = await db.query<{ count: string }>(
    "SELECT count(*) FROM webhooks.configs WHERE partner_id = $1",
    [partnerId],
  );
  return Number(res.rows[0]?.count ?? 0);
}

export async function listConfigs(db: Queryable, partnerId: string): Promise<ConfigRow[]> {
  const res = await db.query<ConfigRow>(
    `SELECT ${COLUMNS} FROM webhooks.configs WHERE partner_id = $1 ORDER BY created_at, config_id`,
    [partnerId],
  );
  return res.rows;
}

/** The configurations events of these partners (an intake batch's) may go to; the caller applies the filters. */
export async function activeConfigsOfPartners(
  db: Queryable,
  partnerIds: readonly string[],
): Promise<ConfigRow[]> {
  const res = await db.query<ConfigRow>(
    `SELECT ${COLUMNS} FROM webhooks.configs WHERE partner_id = ANY($1::text[]) AND active ORDER BY config_id`,
    [partnerIds],
  );
  return res.rows;
}

/** Deletes a configuration and, by cascade, its delivery log. */
export async function deleteConfig(db: Queryable, partnerId: string, configId: string): Promise<boolean> {
  const res = await db.query("DELETE FROM webhooks.configs WHERE partner_id = $1 AND config_id = $2", [
    partnerId,
    configId,
  ]);
  return res.rowCount > 0;
}

/** Rotated-out secrets whose grace period is over are dropped (they already stopped signing). */
export async function dropExpiredPreviousSecrets(db: Queryable, now: Date): Promise<number> {
  const res = await db.query(
    `UPDATE webhooks.configs SET previous_secret_sealed = NULL, previous_secret_expires_at = NULL
      WHERE previous_secret_expires_at <= $1`,
    [now],
  );
  return res.rowCount;
}
