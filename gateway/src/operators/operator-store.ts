import type { Queryable } from "@payouts/platform/database/database";
import { firstRow } from "@payouts/platform/database/first-row";
import type { OperatorRole } from "../admin/admin-actor.js";

export interface OperatorRow {
  operator_id: string;
  username: string;
  role: OperatorRole;
  password_hash: string | null;
  totp_secret_sealed: string | null;
  oidc_subject: string | null;
  created_at: Date;
  disabled_at: Date | null;
}

export interface MachineCredentialRow {
  credential_id: string;
  name: string;
  role: OperatorRole;
  created_at: Date;
  revoked_at: Date | null;
}

export async function insertOperator(
  db: Queryable,
  row: {
    operatorId: string;
    username: string;
    role: OperatorRole;
    passwordHash: string | null;
    totpSecretSealed: string | null;
    oidcSubject?: string | null;
  },
): Promise<OperatorRow> {
  const res = await db.query<OperatorRow>(
    `INSERT INTO gateway.operators (operator_id, username, role, password_hash, totp_secret_sealed, oidc_subject)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [row.operatorId, row.username, row.role, row.passwordHash, row.totpSecretSealed, row.oidcSubject ?? null],
  );
  return res.rows[0]!;
}

export function findOperatorByUsername(db: Queryable, username: string): Promise<OperatorRow | undefined> {
  return firstRow<OperatorRow>(db, "SELECT * FROM gateway.operators WHERE username = $1", [username]);
}

export function findOperatorBySubject(db: Queryable, subject: string): Promise<OperatorRow | undefined> {
  return firstRow<OperatorRow>(db, "SELECT * FROM gateway.operators WHERE oidc_subject = $1", [subject]);
}

export async function listOperators(db: Queryable): Promise<OperatorRow[]> {
  return (await db.query<OperatorRow>("SELECT * FROM gateway.operators ORDER BY username")).rows;
}

/** Writes the role (OIDC sign-ins follow the provider's claim); undefined when there is no such operator. */
export function setOperatorRole(
  db: Queryable,
  username: string,
  role: OperatorRole,
): Promise<OperatorRow | undefined> {
  return firstRow<OperatorRow>(
    db,
    "UPDATE gateway.operators SET role = $2, updated_at = now() WHERE username = $1 RETURNING *",
    [username, role],
  );
}

/** Disables the operator and ends every session of theirs, in one statement. */
export function disableOperator(db: Queryable, username: string): Promise<OperatorRow | undefined> {
  return firstRow<OperatorRow>(
    db,
    `WITH disabled AS (
       UPDATE gateway.operators SET disabled_at = COALESCE(disabled_at, now()), updated_at = now()
        WHERE username = $1 RETURNING *
     ), ended AS (
       UPDATE gateway.operator_sessions s SET ended_at = now()
         FROM disabled d WHERE s.operator_id = d.operator_id AND s.ended_at IS NULL
     )
     SELECT * FROM disabled`,
    [username],
  );
}

export async function insertMachineCredential(
  db: Queryable,
  row: { credentialId: string; name: string; role: OperatorRole; tokenHash: string },
): Promise<MachineCredentialRow> {
  const res = await db.query<MachineCredentialRow>(
    `INSERT INTO gateway.machine_credentials (credential_id, name, role, token_hash) VALUES ($1, $2, $3, $4)
     RETURNING credential_id, name, role, created_at, revoked_at`,
    [row.credentialId, row.name, row.role, row.tokenHash],
  );
  return res.rows[0]!;
}

export function findActiveMachineCredential(
  db: Queryable,
  tokenHash: string,
): Promise<MachineCredentialRow | undefined> {
  return firstRow<MachineCredentialRow>(
    db,
    `SELECT credential_id, name, role, created_at, revoked_at FROM gateway.machine_credentials
      WHERE token_hash = $1 AND revoked_at IS NULL`,
    [tokenHash],
  );
}

export async function listMachineCredentials(db: Queryable): Promise<MachineCredentialRow[]> {
  const res = await db.query<MachineCredentialRow>(
    "SELECT credential_id, name, role, created_at, revoked_at FROM gateway.machine_credentials ORDER BY name",
  );
  return res.rows;
}

export function revokeMachineCredential(
  db: Queryable,
  name: string,
): Promise<MachineCredentialRow | undefined> {
  return firstRow<MachineCredentialRow>(
    db,
    `UPDATE gateway.machine_credentials SET revoked_at = COALESCE(revoked_at, now()) WHERE name = $1
     RETURNING credential_id, name, role, created_at, revoked_at`,
    [name],
  );
}
