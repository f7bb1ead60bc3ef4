/**
 * The server side of service authentication: one Connect interceptor that every service runs, in both
 * modes (startGrpcServer and the embedded router transports). It refuses a call without a valid
 * credential (Unauthenticated) and a caller the allowlist does not name for the method (PermissionDenied),
 * and tells the handler who called (`callerOf`). The token is never logged or echoed. The RPC handler
 * runs the same check (`authenticateCall`) from the headers before it reads the request body.
 */
import {
  Code,
  ConnectError,
  createContextKey,
  type HandlerContext,
  type Interceptor,
} from "@connectrpc/connect";
import type { Logger } from "../logging/logger.js";
import { CALLER_ALLOWLIST, OPEN_SERVICES, OPERATOR_CALLERS, type ServiceCaller } from "./caller-allowlist.js";
import { claimedCaller, SERVICE_TOKEN_HEADER, type ServiceTokenVerifier } from "./service-credentials.js";

const CALLER = createContextKey<ServiceCaller | undefined>(undefined, { description: "service caller" });

/** The authenticated caller of the RPC being handled; undefined only for open services (health). */
export function callerOf(ctx: HandlerContext): ServiceCaller | undefined {
  return ctx.values.get(CALLER);
}

/** True when the caller may act across partners (an empty partner_id on reads that allow it). */
export function isOperatorCall(ctx: HandlerContext): boolean {
  const caller = callerOf(ctx);
  return caller !== undefined && OPERATOR_CALLERS.includes(caller);
}

export interface ServiceAuthOptions {
  /**
   * Checks the tokens addressed to this service (its audience and the callers' public keys);
   * undefined = nothing configured, every RPC but health refused.
   */
  readonly verifier: ServiceTokenVerifier | undefined;
  readonly allowlist?: Readonly<Record<string, readonly ServiceCaller[]>>;
  readonly logger?: Logger;
}

/**
 * The caller of `procedure` ("<service>/<Method>") from the request's authorization header alone, or
 * the error to answer with: Unauthenticated without a valid token for this service, PermissionDenied
 * for a caller the allowlist does not name. Undefined for the open services (no caller).
 */
export async function authenticateCall(
  options: ServiceAuthOptions,
  procedure: string,
  authorization: string | null | undefined,
): Promise<{ readonly caller: ServiceCaller | undefined } | { readonly error: ConnectError }> {
  const service = procedure.slice(0, procedure.indexOf("/"));
  if (OPEN_SERVICES.includes(service)) return { caller: undefined };
  const token = bearerToken(authorization ?? null);
  const caller = token === undefined ? undefined : await options.verifier?.authenticate(token);
  if (caller === undefined) {
    options.logger?.warn(
      { procedure, claimed_caller: token === undefined ? null : (claimedCaller(token) ?? "malformed") },
      "service call refused: missing or invalid credential",
    );
    return { error: new ConnectError("a valid service credential is required", Code.Unauthenticated) };
  }
  if (!(options.allowlist ?? CALLER_ALLOWLIST)[procedure]?.includes(caller)) {
    options.logger?.warn({ procedure, caller }, "service call refused: caller not allowed");
    return { error: new ConnectError(`caller ${caller} may not call ${procedure}`, Code.PermissionDenied) };
  }
  return { caller };
}

export function createServiceAuthInterceptor(options: ServiceAuthOptions): Interceptor {
  return (next) => async (req) => {
    const procedure = `${req.service.typeName}/${req.method.name}`;
    const verdict = await authenticateCall(options, procedure, req.header.get(SERVICE_TOKEN_HEADER));
    if ("error" in verdict) throw verdict.error;
    if (verdict.caller !== undefined) req.contextValues.set(CALLER, verdict.caller);
    return next(req);
  };
}

function bearerToken(header: string | null): string | undefined {
  const match = header === null ? null : /^Bearer ([^\s]+)$/i.exec(header.trim());
  return match?.[1];
}
