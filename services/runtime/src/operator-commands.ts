/**
 * `payouts operators …` and `payouts machine-credentials …`: the admin API's named operators and machine
 * credentials, managed on the gateway's database (GATEWAY_DATABASE_URL, else DATABASE_URL).
 *
 *   operators add <username> --role <role> [--password-stdin]   prints the password (generated unless read
 *                                                               from stdin) and the TOTP otpauth:// URI, once
 *   operators list | set-role <username> <role> | disable <username>
 *   machine-credentials add --name <name> --role <role>          prints the bearer token, once
 *   machine-credentials list | revoke <name>
 */
import {
  addMachineCredential,
  addOperator,
  disableOperator,
  InvalidOperatorInput,
  isOperatorRole,
  listMachineCredentials,
  listOperators,
  OPERATOR_ROLES,
  type OperatorRole,
  operatorSecretBox,
  revokeMachineCredential,
  setOperatorRole,
} from "@payouts/gateway/edge";
import type { Queryable } from "@payouts/platform/database/database";
import { parseSealingKey } from "@payouts/platform/secrets/secret-box";

/** A command given wrongly: its message is printed with the usage, and the process exits 2. */
export class UsageError extends Error {}

/** The message for an error of a command that the person typing it can act on, else undefined. */
export function commandErrorMessage(error: unknown): string | undefined {
  if (error instanceof UsageError || error instanceof InvalidOperatorInput) return error.message;
  if ((error as { code?: string }).code === "23505") return "that name is already taken";
  return undefined;
}

export const OPERATOR_USAGE = `usage:
  payouts operators add <username> --role <${OPERATOR_ROLES.join("|")}> [--password-stdin]
  payouts operators list
  payouts operators set-role <username> <role>
  payouts operators disable <username>
  payouts machine-credentials add --name <name> --role <role>
  payouts machine-credentials list
  payouts machine-credentials revoke <name>`;

function option(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

function roleOf(raw: string | undefined): OperatorRole {
  if (!isOperatorRole(raw)) throw new UsageError(`a role is one of ${OPERATOR_ROLES.join(", ")}`);
  return raw;
}

const VALUED_OPTIONS = new Set(["--role", "--name"]);

/** The arguments that are neither an option nor an option's value. */
const positional = (args: readonly string[]): string[] =>
  args.filter((arg, i) => !arg.startsWith("--") && !VALUED_OPTIONS.has(args[i - 1] ?? ""));

/** Runs one command; answers what to print. `readStdin` gives the password for `--password-stdin`. */
export async function runOperatorCommand(
  db: Queryable,
  env: Readonly<Record<string, string | undefined>>,
  command: "operators" | "machine-credentials",
  args: readonly string[],
  readStdin: () => Promise<string>,
): Promise<string> {
  const [action = "", ...rest] = args;
  const names = positional(rest);
  if (command === "operators") {
    switch (action) {
      case "add": {
        const username = names[0] ?? "";
        const role = roleOf(option(rest, "--role"));
        const password = rest.includes("--password-stdin")
          ? (await readStdin()).replace(/\r?\n$/, "")
          : undefined;
        const key = env.OPERATOR_SECRET_KEY ? parseSealingKey(env.OPERATOR_SECRET_KEY) : undefined;
        const added = await addOperator(db, await operatorSecretBox(db, key), {
          username,
          role,
          ...(password === undefined ? {} : { password }),
        });
        return [
          `operator ${added.operator.username} (${added.operator.operator_id}) added with role ${role}`,
          ...(password === undefined ? [`password (shown once): ${added.password}`] : []),
          `TOTP (add to an authenticator app; shown once): ${added.totpUri}`,
        ].join("\n");
      }
      case "list":
        return (await listOperators(db))
          .map((o) => `${o.username}\t${o.role}\t${o.disabled_at ? "disabled" : "active"}\t${o.operator_id}`)
          .join("\n");
      case "set-role": {
        const row = await setOperatorRole(db, names[0] ?? "", roleOf(names[1]));
        if (!row) throw new UsageError(`no operator ${names[0]}`);
        return `operator ${row.username} now has role ${row.role}`;
      }
      case "disable": {
        const row = await disableOperator(db, names[0] ?? "");
        if (!row) throw new UsageError(`no operator ${names[0]}`);
        return `operator ${row.username} disabled; their sessions are ended`;
      }
    }
  } else {
    switch (action) {
      case "add": {
        const added = await addMachineCredential(db, {
          name: option(rest, "--name") ?? "",
          role: roleOf(option(rest, "--role")),
        });
        return [
          `machine credential ${added.credential.name} (${added.credential.credential_id}) added with role ${added.credential.role}`,
          `token (shown once; send as Authorization: Bearer <token>): ${added.token}`,
        ].join("\n");
      }
      case "list":
        return (await listMachineCredentials(db))
          .map((c) => `${c.name}\t${c.role}\t${c.revoked_at ? "revoked" : "active"}\t${c.credential_id}`)
          .join("\n");
      case "revoke": {
        const row = await revokeMachineCredential(db, names[0] ?? "");
        if (!row) throw new UsageError(`no machine credential ${names[0]}`);
        return `machine credential ${row.name} revoked`;
      }
    }
  }
  throw new UsageError(OPERATOR_USAGE);
}
