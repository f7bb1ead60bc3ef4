import { randomBytes } from "node:crypto";
import {
  addMachineCredential,
  addOperator,
  type OperatorRole,
  operatorSecretBox,
  totpCode,
} from "@payouts/gateway/edge";
import { type ApiResponse, callJson } from "./call-json.js";
import type { TestPlatform } from "./test-platform.js";

/** The console's CSRF header (admin/session-cookie.ts): sent on every cookie-authenticated write. */
export const CSRF = { "X-Requested-With": "payouts-console" } as const;

export interface TestOperator {
  readonly username: string;
  readonly password: string;
  readonly totpSecret: string;
  readonly role: OperatorRole;
}

/** A new operator of `role` with a unique user name, written through the same code as `payouts operators add`. */
export async function createOperator(platform: TestPlatform, role: OperatorRole): Promise<TestOperator> {
  const db = platform.runtime.gateway.deps.db;
  const box = await operatorSecretBox(db, platform.runtime.gateway.deps.config.operatorSecretKey);
  const username = `${role}-${randomBytes(4).toString("hex")}`;
  const added = await addOperator(db, box, { username, role });
  return { username, password: added.password, totpSecret: added.totpSecret, role };
}

/** A machine credential of `role` (as `payouts machine-credentials add`); answers its bearer token. */
export async function createMachineToken(platform: TestPlatform, role: OperatorRole): Promise<string> {
  const name = `ci-${role}-${randomBytes(4).toString("hex")}`;
  return (await addMachineCredential(platform.runtime.gateway.deps.db, { name, role })).token;
}

export function signIn(
  platform: TestPlatform,
  operator: TestOperator,
  overrides: { password?: string; totp?: string; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  return callJson(`${platform.adminUrl}/admin/session`, "POST", overrides.headers ?? {}, {
    username: operator.username,
    password: overrides.password ?? operator.password,
    totp: overrides.totp ?? totpCode(operator.totpSecret),
  });
}

/** The `name=value` of the session cookie a response set. */
export function sessionCookieOf(res: ApiResponse): string {
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("payouts_admin_session="));
  if (!cookie) throw new Error(`no session cookie in ${res.status} ${res.text}`);
  return cookie.split(";")[0]!;
}

/** Signs a new operator of `role` in; answers the cookie. */
export async function operatorCookie(platform: TestPlatform, role: OperatorRole): Promise<string> {
  const res = await signIn(platform, await createOperator(platform, role));
  if (res.status !== 201) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return sessionCookieOf(res);
}

/** An admin call with a session cookie (and the CSRF header unless `csrf: false`). */
export function withCookie(
  platform: TestPlatform,
  cookie: string,
  method: string,
  path: string,
  body?: unknown,
  options: { csrf?: boolean; headers?: Record<string, string> } = {},
): Promise<ApiResponse> {
  return callJson(
    `${platform.adminUrl}${path}`,
    method,
    { cookie, ...(options.csrf === false ? {} : CSRF), ...options.headers },
    body,
  );
}
