/**
 * @payouts/client/admin: the platform's admin API (the operators' listener, port 8081, never public) over
 * fetch, typed from its OpenAPI document, with the Bearer token.
 */
import createClient, { type Client, type Middleware } from "openapi-fetch";
import { errorFromAnswer, networkError, type OperationErrorCode, PayoutsError } from "./errors.js";
import type { components, operations, paths } from "./generated/admin.js";

export { PayoutsError } from "./errors.js";

import { ADMIN_REQUIRED_ROLES } from "./generated/admin-roles.js";

export { TRANSACTION_STATUSES } from "./generated/transaction-statuses.js";
export { ADMIN_REQUIRED_ROLES };

/** Operator roles from least to most; each may do everything the ones before it may. */
export const ADMIN_ROLES = ["viewer", "operator", "finance", "admin"] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** Whether `role` may call the admin operation `METHOD /path` (an unknown one needs admin). */
export function roleMayCall(role: AdminRole, route: string): boolean {
  const needed = (ADMIN_REQUIRED_ROLES as Readonly<Record<string, AdminRole>>)[route] ?? "admin";
  return ADMIN_ROLES.indexOf(role) >= ADMIN_ROLES.indexOf(needed);
}
export type { components as AdminComponents, operations as AdminOperations, paths as AdminPaths };

/** An operation of the admin API, by its `operationId`. */
export type AdminOperation = keyof operations;
/** The error codes the admin document lists for one operation, e.g. `AdminErrorCodeOf<"creditBalance">`. */
export type AdminErrorCodeOf<Op extends AdminOperation> = OperationErrorCode<operations, Op>;
/** Every error code of the admin API. */
export type AdminErrorCode = { [Op in AdminOperation]: AdminErrorCodeOf<Op> }[AdminOperation];

export interface AdminClientOptions {
  /** The admin listener, e.g. `http://127.0.0.1:8081`. */
  readonly baseUrl: string;
  /**
   * A machine credential (`payouts machine-credentials add`, or the gateway's `ADMIN_TOKEN`), sent as
   * `Authorization: Bearer …`. Absent in a browser signed in as an operator: the session cookie goes instead.
   */
  readonly token?: string;
  /** A fetch of your own; default `globalThis.fetch`. */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Headers sent on every request (never `Authorization`: the token sets it). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The admin API as an openapi-fetch client: `admin.GET("/admin/partners/{partner_id}", { params: … })`,
 * paths, parameters and bodies typed from the document. Unlike plain openapi-fetch, a call whose answer is
 * not 2xx, or that gets no answer, rejects with a `PayoutsError` (status, code, message, field,
 * request_id); `dataOf(call)` resolves with the typed 2xx body.
 */
export type AdminClient = Client<paths>;

export function createAdminClient(options: AdminClientOptions): AdminClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    headers: { ...options.headers, ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use(FAILURES_REJECT);
  return client;
}

/** The 2xx body of an admin call (undefined for 204). */
export async function dataOf<Data>(call: Promise<{ data?: Data; response: Response }>): Promise<Data> {
  const { data } = await call;
  return data as Data;
}

/** True for a PayoutsError, narrowing its code to those admin `operation` can answer when given. */
export function isAdminError<Op extends AdminOperation>(
  error: unknown,
  _operation?: Op,
): error is PayoutsError<AdminErrorCodeOf<Op>> {
  return error instanceof PayoutsError;
}

const FAILURES_REJECT: Middleware = {
  async onResponse({ response }) {
    if (response.ok) return undefined;
    const text = await response.clone().text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: reported as INVALID_RESPONSE with an excerpt
    }
    throw errorFromAnswer<AdminErrorCode>(response, body);
  },
  onError({ error, request }) {
    // The caller's own abort is theirs to see as it is.
    if (request.signal.aborted || error instanceof PayoutsError) return undefined;
    return networkError<AdminErrorCode>(error);
  },
};
