/**
 * Managing operators and machine credentials (the `payouts operators` and `payouts machine-credentials`
 * commands, and the embedded sandbox's first operator), and checking an operator's sign-in.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import type { SecretBox } from "@payouts/platform/secrets/secret-box";
import type { OperatorRole } from "../admin/admin-actor.js";
import {
  generatePassword,
  hashPassword,
  newTotpSecret,
  randomToken,
  tokenDigest,
  totpContext,
  totpStep,
  verifyPassword,
} from "./operator-secrets.js";
import {
  findOperatorByUsername,
  insertMachineCredential,
  insertOperator,
  type MachineCredentialRow,
  type OperatorRow,
} from "./operator-store.js";

/** Input the commands refuse with a message for the person typing them. */
export class InvalidOperatorInput extends Error {}

export const USERNAME_PATTERN = /^[a-z0-9][a-z0-9._@-]{0,99}$/;
export const CREDENTIAL_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,99}$/;

export interface AddedOperator {
  readonly operator: OperatorRow;
  /** The password: the one given, or a generated one shown once. */
  readonly password: string;
  readonly totpSecret: string;
  /** `otpauth://totp/…` for an authenticator app (shown once; the secret is stored sealed). */
  readonly totpUri: string;
}

export async function addOperator(
  db: Queryable,
  box: SecretBox,
  input: { username: string; role: OperatorRole; password?: string },
): Promise<AddedOperator> {
  if (!USERNAME_PATTERN.test(input.username)) {
    throw new InvalidOperatorInput(
      "a user name is 1-100 of a-z 0-9 . _ @ -, starting with a letter or digit",
    );
  }
  if (input.password !== undefined && input.password.length < 12) {
    throw new InvalidOperatorInput("a password is at least 12 characters");
  }
  const password = input.password ?? generatePassword();
  const operatorId = newId("op");
  const totp = newTotpSecret(input.username);
  const operator = await insertOperator(db, {
    operatorId,
    username: input.username,
    role: input.role,
    passwordHash: await hashPassword(password),
    totpSecretSealed: box.seal(totp.secretBase32, totpContext(operatorId)),
  });
  return { operator, password, totpSecret: totp.secretBase32, totpUri: totp.uri };
}

export async function addMachineCredential(
  db: Queryable,
  input: { name: string; role: OperatorRole },
): Promise<{ credential: MachineCredentialRow; token: string }> {
  if (!CREDENTIAL_NAME_PATTERN.test(input.name)) {
    throw new InvalidOperatorInput(
      "a credential name is 1-100 of a-z 0-9 . _ -, starting with a letter or digit",
    );
  }
  const token = randomToken("mct_");
  const credential = await insertMachineCredential(db, {
    credentialId: newId("mc"),
    name: input.name,
    role: input.role,
    tokenHash: tokenDigest(token),
  });
  return { credential, token };
}

/** A precomputed hash checked when the user name is unknown, so both cases take an argon2 run. */
let decoyHash: Promise<string> | undefined;

/**
 * The operator whose password and TOTP code these are, or undefined. A code is accepted once: its time
 * step is recorded, and a code of the same or an earlier step is refused afterwards.
 */
export async function checkSignIn(
  db: Queryable,
  box: SecretBox,
  input: { username: string; password: string; totp: string },
): Promise<OperatorRow | undefined> {
  const operator = await findOperatorByUsername(db, input.username);
  decoyHash ??= hashPassword(generatePassword());
  const passwordOk = await verifyPassword(input.password, operator?.password_hash ?? (await decoyHash));
  if (!operator || !passwordOk || operator.disabled_at !== null || operator.totp_secret_sealed === null) {
    return undefined;
  }
  const secret = box.open(operator.totp_secret_sealed, totpContext(operator.operator_id));
  const step = totpStep(secret, input.totp.trim());
  if (step === undefined) return undefined;
  const used = await db.query(
    `UPDATE gateway.operators SET totp_last_step = $2
      WHERE operator_id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)`,
    [operator.operator_id, step],
  );
  return used.rowCount === 1 ? operator : undefined;
}
