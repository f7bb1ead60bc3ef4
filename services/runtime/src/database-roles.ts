import { randomBytes } from "node:crypto";
import { ConfigError } from "@payouts/platform/config/env-config";
import { isRoleName, type ServiceRoleGrant } from "@payouts/platform/database/service-roles";
import type { ServiceRole } from "./service-roles.js";

/**
 * The database identity of each process: the schema it owns, the variable naming its own connection
 * (`<SERVICE>_DATABASE_URL`, whose user is the service's PostgreSQL role) and the role the one-process
 * mode gives it. `DATABASE_URL` is the migration role's: it owns the schemas and runs `migrate`, which
 * creates each service's role from the user and password of its URL.
 */
export interface DatabaseUser {
  readonly schema: string;
  readonly urlEnv: string;
  readonly defaultRole: string;
  readonly appendOnlyTables?: readonly string[];
}

export type DatabaseProcess = "gateway" | ServiceRole;

export const DATABASE_USERS: Readonly<Record<DatabaseProcess, DatabaseUser>> = {
  gateway: {
    schema: "gateway",
    urlEnv: "GATEWAY_DATABASE_URL",
    defaultRole: "payouts_gateway",
    // The admin API's audit trail is append-only (triggers refuse changes too): the gateway can only add to it.
    appendOnlyTables: ["audit_records"],
  },
  lookup: { schema: "lookup", urlEnv: "LOOKUP_DATABASE_URL", defaultRole: "payouts_lookup" },
  pricing: { schema: "pricing", urlEnv: "PRICING_DATABASE_URL", defaultRole: "payouts_pricing" },
  ledger: {
    schema: "ledger",
    urlEnv: "LEDGER_DATABASE_URL",
    defaultRole: "payouts_ledger",
    // The book, the closed statement days and batch approvals are append-only (triggers refuse changes
    // too); the role cannot even try.
    appendOnlyTables: [
      "entries",
      "movements",
      "statement_days",
      "statement_day_entries",
      "statement_revision_entries",
      "batch_approvals",
    ],
  },
  webhooks: {
    schema: "webhooks",
    urlEnv: "WEBHOOKS_DATABASE_URL",
    defaultRole: "payouts_webhooks",
  },
  "sandbox-rail": {
    schema: "rail",
    urlEnv: "SANDBOX_RAIL_DATABASE_URL",
    defaultRole: "payouts_sandbox_rail",
  },
};

export const ALL_SCHEMAS: readonly string[] = Object.values(DATABASE_USERS).map((u) => u.schema);

type Env = Readonly<Record<string, string | undefined>>;

/** The URL a process connects with: its own `<SERVICE>_DATABASE_URL`, else `DATABASE_URL`. */
export function processDatabaseUrl(env: Env, process: DatabaseProcess): string | undefined {
  return env[DATABASE_USERS[process].urlEnv] || env.DATABASE_URL || undefined;
}

/**
 * The roles `migrate` provisions: one per `<SERVICE>_DATABASE_URL` given, named by its user, with its
 * password. With `requireAll` (production), every service's URL must be given. A URL without a user,
 * a user shared by two services or the migration role's own user is refused.
 */
export function roleGrantsFromEnv(env: Env, options: { requireAll: boolean }): ServiceRoleGrant[] {
  const problems: string[] = [];
  const grants: ServiceRoleGrant[] = [];
  const migrationUser = userOf(env.DATABASE_URL);
  const seen = new Map<string, string>();
  for (const user of Object.values(DATABASE_USERS)) {
    const raw = env[user.urlEnv];
    if (!raw) {
      if (options.requireAll) {
        problems.push(`${user.urlEnv} is required in production: its user becomes the service's own role`);
      }
      continue;
    }
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      problems.push(`${user.urlEnv} is not a URL`);
      continue;
    }
    const role = decodeURIComponent(url.username);
    if (!isRoleName(role)) {
      problems.push(`${user.urlEnv} must name a role of lower case letters, digits and underscores`);
      continue;
    }
    if (role === migrationUser) {
      problems.push(`${user.urlEnv} names the migration role ${role}; each service needs a role of its own`);
    }
    const other = seen.get(role);
    if (other) problems.push(`${user.urlEnv} and ${other} name the same role ${role}`);
    seen.set(role, user.urlEnv);
    const password = decodeURIComponent(url.password);
    grants.push({
      role,
      schema: user.schema,
      ...(password ? { password } : {}),
      ...(user.appendOnlyTables ? { appendOnlyTables: user.appendOnlyTables } : {}),
    });
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return grants;
}

/** The roles of the one-process mode: the default names, no login (the process acts as them by SET ROLE). */
export function embeddedRoleGrants(): ServiceRoleGrant[] {
  return Object.values(DATABASE_USERS).map((user) => ({
    role: user.defaultRole,
    schema: user.schema,
    ...(user.appendOnlyTables ? { appendOnlyTables: user.appendOnlyTables } : {}),
  }));
}

/**
 * Fresh `<SERVICE>_DATABASE_URL`s on the server and database of `migrationUrl`: roles `<prefix>_<service>`
 * with random passwords (launchers; `migrate` then creates the roles from them).
 */
export function generateServiceDatabaseUrls(
  migrationUrl: string,
  prefix = "payouts",
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const user of Object.values(DATABASE_USERS)) {
    const url = new URL(migrationUrl);
    url.username = `${prefix}_${user.defaultRole.replace(/^payouts_/, "")}`;
    url.password = randomBytes(24).toString("base64url");
    if (!isRoleName(url.username)) throw new Error(`invalid role prefix ${JSON.stringify(prefix)}`);
    out[user.urlEnv] = url.toString();
  }
  return out;
}

function userOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).username) || undefined;
  } catch {
    return undefined;
  }
}
