/**
 * The one place admin requests are recorded: hooks on the admin listener that every route gets, however
 * and whenever it is registered (a route has no way to opt out). A request is recorded when it matched a
 * route and either changes state (any method but GET, HEAD and OPTIONS, public routes such as signing in
 * included) or reads a route of `recordedReads` (the audit export):
 *
 * - before its handler runs, a `started` record (who, from where, which route and targets, the body with
 *   secrets redacted). If it cannot be written the handler does not run, so nothing changes unrecorded:
 *   the request is refused with 503 SERVICE_UNAVAILABLE and Retry-After when the database is unreachable
 *   (500 INTERNAL for an unexpected failure).
 * - when the answer is ready and before it is sent, a `finished` record with the status and error code, naming the `started` one. A
 *   request refused before its handler (no or a wrong credential, a role refused by an earlier hook, a
 *   malformed body) has this record only. If the `finished` record cannot be written, the `started` one
 *   stands and the request shows with outcome `unknown`; the failure is logged.
 */
import { ConnectError } from "@connectrpc/connect";
import type { Database } from "@payouts/platform/database/database";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "../http/api-error.js";
import { isDependencyUnavailable, RETRY_AFTER_SECONDS } from "../http/error-map.js";
import { withExactNumbers } from "../http/json-number-text.js";
import { type AuditFields, type AuditPhase, canonicalJson } from "./audit-chain.js";
import { redactSecrets } from "./audit-redaction.js";
import { appendAuditRecord } from "./audit-store.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The sequence of this request's `started` audit record. */
    auditStarted?: number;
  }
}

const READ_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** Body fields naming who a caller without a credential tries to sign in as. */
const USER_NAME_FIELDS = ["username", "user_name", "login", "email"] as const;

const USER_AGENT_MAX = 500;

export function installAuditTrail(
  app: FastifyInstance,
  db: Database,
  options: { readonly recordedReads: readonly string[] },
): void {
  const recordedReads = new Set(options.recordedReads);
  const isRecorded = (request: FastifyRequest) =>
    !request.is404 &&
    request.routeOptions.url !== undefined &&
    (!READ_METHODS.has(request.method) || recordedReads.has(request.routeOptions.url));

  app.addHook("preHandler", async (request) => {
    if (!isRecorded(request)) return;
    try {
      const record = await appendAuditRecord(db, auditFields(request, "started"));
      request.auditStarted = record.sequence;
    } catch (error) {
      // Either way the handler does not run; an unexpected failure (a bug) is answered 500 as any other.
      if (!isUnavailable(error)) throw error;
      request.log.error({ err: error, request_id: request.id }, "audit trail unavailable: request refused");
      throw new ApiError(
        503,
        "SERVICE_UNAVAILABLE",
        "the audit trail is unavailable, so nothing is changed; retry later",
        undefined,
        { "Retry-After": String(RETRY_AFTER_SECONDS) },
      );
    }
  });

  // The outcome is written before the answer leaves, so a caller that has its answer finds it recorded.
  app.addHook("onSend", async (request, reply, payload) => {
    if (!isRecorded(request)) return payload;
    const errorCode =
      reply.statusCode >= 400 && typeof payload === "string" ? errorCodeOf(payload) : undefined;
    try {
      await appendAuditRecord(db, auditFields(request, "finished", { status: reply.statusCode, errorCode }));
    } catch (error) {
      request.log.error(
        { err: error, request_id: request.id, started: request.auditStarted },
        "audit outcome not recorded: the request shows with outcome unknown",
      );
    }
    return payload;
  });
}

function auditFields(
  request: FastifyRequest,
  phase: AuditPhase,
  outcome?: { readonly status: number; readonly errorCode: string | undefined },
): Omit<AuditFields, "sequence"> {
  const actor = request.adminActor;
  const userAgent = request.headers["user-agent"];
  return {
    phase,
    startedSequence: phase === "finished" ? (request.auditStarted ?? null) : null,
    at: new Date().toISOString(),
    actorId: actor?.id ?? null,
    actorName: actor?.name ?? null,
    actorKind: actor?.kind ?? null,
    actorRole: actor?.role ?? null,
    attemptedUser: actor === undefined ? attemptedUserOf(request.body) : null,
    sourceAddress: request.ip,
    userAgent: typeof userAgent === "string" ? userAgent.slice(0, USER_AGENT_MAX) : null,
    requestId: request.id,
    method: request.method,
    route: request.routeOptions.url ?? "",
    targetIds: targetIdsOf(request.params),
    body:
      request.body === undefined
        ? null
        : (canonicalJson(finiteNumbers(redactSecrets(withExactNumbers(request.body)))) ?? null),
    status: outcome?.status ?? null,
    errorCode: outcome?.errorCode ?? null,
  };
}

/**
 * `value` with every number JSON cannot hold (a body's `1e400` parses as Infinity) written as null, as
 * JSON.stringify writes it: canonical JSON refuses them, and the body is recorded whatever it holds.
 */
function finiteNumbers(value: unknown): unknown {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(finiteNumbers);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, finiteNumbers(child)]));
}

/** The database unreachable: the adapter's own DatabaseUnavailableError, or a raw connection failure. */
function isUnavailable(error: unknown): boolean {
  return (
    isDependencyUnavailable(error) ||
    (error instanceof ConnectError && errorDetailOf(error)?.reason === "SERVICE_UNAVAILABLE")
  );
}

function targetIdsOf(params: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (params === null || typeof params !== "object") return out;
  for (const [name, value] of Object.entries(params)) if (typeof value === "string") out[name] = value;
  return out;
}

/** The user name a caller without a credential gave in its body (a sign-in), if any. */
export function attemptedUserOf(body: unknown): string | null {
  if (body === null || typeof body !== "object") return null;
  for (const field of USER_NAME_FIELDS) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === "string" && value !== "") return value.slice(0, 200);
  }
  return null;
}

function errorCodeOf(payload: string): string | undefined {
  try {
    const code = (JSON.parse(payload) as { code?: unknown }).code;
    return typeof code === "string" ? code : undefined;
  } catch {
    return undefined;
  }
}
