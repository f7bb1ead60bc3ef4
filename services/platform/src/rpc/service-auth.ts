/**
 * The server side of service authentication: one Connect interceptor that every service runs, in both
 * modes (startGrpcServer and the embedded router transports). It refuses a call without a valid
 * credential (Unauthenticated) and a caller the allowlist does not name for the method (PermissionDenied),
 * and tells the handler who called (`callerOf`). The token is never logged or echoed.
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
import { type CallerDigests, callerNamedBy, SERVICE_TOKEN_HEADER } from "./service-credentials.js";

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
  /** Digests of the tokens this server accepts; undefined = nothing configured, every RPC but health refused. */
  readonly digests: CallerDigests | undefined;
  readonly allowlist?: Readonly<Record<string, readonly ServiceCaller[]>>;
  readonly logger?: Logger;
}

export function createServiceAuthInterceptor(options: ServiceAuthOptions): Interceptor {
  const allowlist = options.allowlist ?? CALLER_ALLOWLIST;
  return (next) => async (req) => {
    if (OPEN_SERVICES.includes(req.service.typeName)) return next(req);
    const procedure = `${req.service.typeName}/${req.method.name}`;
    const token = bearerToken(req.header.get(SERVICE_TOKEN_HEADER));
    const caller = token === undefined ? undefined : options.digests?.authenticate(token);
    if (caller === undefined) {
      options.logger?.warn(
        { procedure, claimed_caller: token === undefined ? null : (callerNamedBy(token) ?? "malformed") },
        "service call refused: missing or invalid credential",
      );
      throw new ConnectError("a valid service credential is required", Code.Unauthenticated);
    }
    if (!allowlist[procedure]?.includes(caller)) {
      options.logger?.warn({ procedure, caller }, "service call refused: caller not allowed");
      throw new ConnectError(`caller ${caller} may not call ${procedure}`, Code.PermissionDenied);
    }
    req.contextValues.set(CALLER, caller);
    return next(req);
  };
}

function bearerToken(header: string | null): string | undefined {
  const match = header === null ? null : /^Bearer ([^\s]+)$/i.exec(header.trim());
  return match?.[1];
}
