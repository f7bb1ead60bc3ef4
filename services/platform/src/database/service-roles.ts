/**
 * One PostgreSQL role per service, each able to read and write the rows of its own schema and nothing
 * else: no DDL (no CREATE on any schema or on the database), no other schema, no role attributes. The
 * migration role (the one that runs `migrate` and owns every schema) provisions them after migrating:
 *
 * - the role is created if missing (NOLOGIN until a password is given), its password set when given, as
 *   a SCRAM-SHA-256 verifier computed here, so the clear password never reaches the server or its log;
 * - USAGE on its schema, SELECT/INSERT/UPDATE/DELETE on its tables and USAGE/SELECT/UPDATE on its
 *   sequences; default privileges give it the same on tables and sequences later migrations create;
 * - nothing on the bookkeeping table schema_migrations; only SELECT/INSERT on append-only tables;
 * - every privilege on the other platform schemas is revoked, so re-running repairs a role widened by hand.
 *
 * Idempotent and safe to run concurrently (a transaction-scoped advisory lock orders runs on a database;
 * a role created meanwhile by a run on another database of the server is taken as it is).
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import type { Database, Queryable } from "./database.js";

export interface ServiceRoleGrant {
  /** PostgreSQL role name: lower case letters, digits and underscores. */
  readonly role: string;
  /** The one schema the role reads and writes. */
  readonly schema: string;
  /** Sets the role's password and LOGIN; absent leaves an existing role's login as it is. */
  readonly password?: string;
  /** Tables of the schema the role may only read and append to (no UPDATE, no DELETE). */
  readonly appendOnlyTables?: readonly string[];
}

export interface ProvisionOptions {
  /** Every schema of the platform: privileges on all but the role's own are revoked. */
  readonly allSchemas: readonly string[];
  /**
   * Makes the connected (migration) role a member of each service role, so that a pool of its own
   * connections can act as one with `SET ROLE` (the one-process mode). A superuser needs no membership.
   */
  readonly assumable?: boolean;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export function isRoleName(name: string): boolean {
  return IDENTIFIER.test(name);
}

export async function provisionServiceRoles(
  db: Database,
  grants: readonly ServiceRoleGrant[],
  options: ProvisionOptions,
): Promise<void> {
  for (const name of [...grants.flatMap((g) => [g.role, g.schema]), ...options.allSchemas]) {
    if (!isRoleName(name)) throw new Error(`invalid role or schema name ${JSON.stringify(name)}`);
  }
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('payouts:service-roles'))");
    const me = await tx.query<{ name: string; superuser: boolean; database: string }>(
      `SELECT current_user AS name, rolsuper AS superuser, current_database() AS database
         FROM pg_roles WHERE rolname = current_user`,
    );
    const self = me.rows[0];
    if (!self) throw new Error("the connected role is not in pg_roles");
    for (const grant of grants) {
      if (grant.role === self.name) {
        throw new Error(`service role ${grant.role} is the migration role itself; give each service its own`);
      }
      await ensureRole(tx, grant.role);
      if (grant.password !== undefined) {
        await tx.exec(`ALTER ROLE ${grant.role} WITH LOGIN PASSWORD '${scramVerifier(grant.password)}'`);
      }
      if (options.assumable && !self.superuser) await tx.exec(`GRANT ${grant.role} TO ${self.name}`);
      await tx.exec(grantStatements(grant, options.allSchemas, self.database).join(";\n"));
    }
  });
}

/** Creates the role if it is missing; refuses one that exists with attributes beyond a plain login. */
async function ensureRole(tx: Queryable, role: string): Promise<void> {
  await tx.exec(`DO $$ BEGIN
      CREATE ROLE ${role} NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END $$`);
  const found = await tx.query<{ elevated: boolean }>(
    `SELECT rolsuper OR rolcreatedb OR rolcreaterole OR rolreplication OR rolbypassrls AS elevated
       FROM pg_roles WHERE rolname = $1`,
    [role],
  );
  if (found.rows[0]?.elevated) {
    throw new Error(`role ${role} exists with SUPERUSER, CREATEDB, CREATEROLE, REPLICATION or BYPASSRLS`);
  }
}

function grantStatements(grant: ServiceRoleGrant, allSchemas: readonly string[], database: string): string[] {
  const { role, schema } = grant;
  const db = `"${database.replaceAll('"', '""')}"`;
  const others = allSchemas.filter((s) => s !== schema);
  const dml = "SELECT, INSERT, UPDATE, DELETE";
  const sequences = "USAGE, SELECT, UPDATE";
  return [
    `REVOKE CREATE ON DATABASE ${db} FROM ${role}`,
    `GRANT CONNECT ON DATABASE ${db} TO ${role}`,
    ...others.flatMap((other) => [
      `DO $$ BEGIN IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = '${other}') THEN
         REVOKE ALL ON ALL TABLES IN SCHEMA ${other} FROM ${role};
         REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${other} FROM ${role};
         REVOKE ALL ON ALL FUNCTIONS IN SCHEMA ${other} FROM ${role};
         REVOKE ALL ON SCHEMA ${other} FROM ${role};
         ALTER DEFAULT PRIVILEGES IN SCHEMA ${other} REVOKE ALL ON TABLES FROM ${role};
         ALTER DEFAULT PRIVILEGES IN SCHEMA ${other} REVOKE ALL ON SEQUENCES FROM ${role};
       END IF; END $$`,
    ]),
    `REVOKE CREATE ON SCHEMA ${schema} FROM ${role}`,
    `GRANT USAGE ON SCHEMA ${schema} TO ${role}`,
    `GRANT ${dml} ON ALL TABLES IN SCHEMA ${schema} TO ${role}`,
    `REVOKE TRUNCATE, REFERENCES, TRIGGER ON ALL TABLES IN SCHEMA ${schema} FROM ${role}`,
    `GRANT ${sequences} ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT ${dml} ON TABLES TO ${role}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT ${sequences} ON SEQUENCES TO ${role}`,
    `REVOKE ALL ON ${schema}.schema_migrations FROM ${role}`,
    ...(grant.appendOnlyTables ?? []).map((table) => {
      if (!isRoleName(table)) throw new Error(`invalid table name ${JSON.stringify(table)}`);
      return `REVOKE UPDATE, DELETE ON ${schema}.${table} FROM ${role}`;
    }),
  ];
}

/**
 * The SCRAM-SHA-256 verifier PostgreSQL stores for `password` (RFC 5802/7677; 4096 iterations, PostgreSQL's
 * default). ALTER ROLE takes it as the password, so the server never sees the password itself. The
 * passwords given here are generated ASCII, for which SASLprep changes nothing.
 */
export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(Buffer.from(password, "utf8"), salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}

/**
 * What makes a connection unfit to be a service's: a role attribute, ownership of or CREATE on its schema
 * or the database, or any use of another platform schema. Empty when the role is the least it can be.
 */
export async function serviceRoleProblems(
  db: Pick<Queryable, "query">,
  schema: string,
  allSchemas: readonly string[],
): Promise<string[]> {
  const res = await db.query<{
    role: string;
    elevated: boolean;
    can_create_database: boolean;
    can_create_schema: boolean;
    other_schemas: string[];
  }>(
    `SELECT r.rolname AS role,
            r.rolsuper OR r.rolcreatedb OR r.rolcreaterole OR r.rolbypassrls AS elevated,
            has_database_privilege(current_database(), 'CREATE') AS can_create_database,
            COALESCE((SELECT has_schema_privilege(n.oid, 'CREATE') FROM pg_namespace n WHERE n.nspname = $1),
                     false) AS can_create_schema,
            ARRAY(SELECT n.nspname::text FROM pg_namespace n
                   WHERE n.nspname = ANY($2::text[]) AND n.nspname <> $1
                     AND has_schema_privilege(n.oid, 'USAGE') ORDER BY n.nspname) AS other_schemas
       FROM pg_roles r WHERE r.rolname = current_user`,
    [schema, allSchemas],
  );
  const row = res.rows[0];
  if (!row) return ["the connected role is not in pg_roles"];
  const problems: string[] = [];
  if (row.elevated) problems.push(`role ${row.role} is a superuser or may create roles or databases`);
  if (row.can_create_database) problems.push(`role ${row.role} may create schemas in the database`);
  if (row.can_create_schema) problems.push(`role ${row.role} owns or may create objects in schema ${schema}`);
  if (row.other_schemas.length > 0) {
    problems.push(`role ${row.role} may use the schemas of other services: ${row.other_schemas.join(", ")}`);
  }
  return problems;
}
