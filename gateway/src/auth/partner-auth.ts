import type { FastifyRequest } from "fastify";
import { ApiError } from "../http/api-error.js";
import { countAuthOutcome } from "./auth-metrics.js";
import { parseBasicCredentials } from "./basic-credentials.js";
import type { AuthenticatedApp, CredentialVerifier } from "./credential-verifier.js";

declare module "fastify" {
  interface FastifyRequest {
    partnerApp?: AuthenticatedApp;
  }
  interface FastifyContextConfig {
    /**
     * "hook" (default): checked before the handler. "handler": the handler calls `authenticate` itself,
     * after its body checks (previewQuotations' documented order). "none": public route.
     */
    auth?: "hook" | "handler" | "none";
  }
}

export const authenticationRequired = () =>
  new ApiError(401, "AUTHENTICATION_REQUIRED", "valid Basic client credentials are required", undefined, {
    "WWW-Authenticate": 'Basic realm="payouts", charset="UTF-8"',
  });

export const tooManyFailedLogins = (retryAfterSeconds: number) =>
  new ApiError(
    429,
    "RATE_LIMIT_EXCEEDED",
    "too many failed authentications from this address; retry later",
    undefined,
    { "Retry-After": String(retryAfterSeconds) },
  );

export const authenticationBusy = () =>
  new ApiError(
    503,
    "SERVICE_UNAVAILABLE",
    "too many credential checks in progress; retry shortly",
    undefined,
    {
      "Retry-After": "1",
    },
  );

/**
 * Authenticates the request's Basic credentials: 401 AUTHENTICATION_REQUIRED when they are missing,
 * malformed, wrong or revoked; 429 RATE_LIMIT_EXCEEDED with Retry-After when this address has failed
 * too often; 503 SERVICE_UNAVAILABLE with Retry-After when this process already has
 * as many credential checks running and waiting as it allows (see createCredentialVerifier).
 */
export async function authenticate(
  request: FastifyRequest,
  verifier: CredentialVerifier,
): Promise<AuthenticatedApp> {
  if (request.partnerApp) return request.partnerApp;
  const creds = parseBasicCredentials(request.headers.authorization);
  const outcome = creds
    ? await verifier.verify(creds.clientId, creds.secret, request.ip)
    : ({ kind: "refused" } as const);
  countAuthOutcome(outcome.kind);
  if (outcome.kind === "throttled") throw tooManyFailedLogins(outcome.retryAfterSeconds);
  if (outcome.kind === "busy") throw authenticationBusy();
  if (outcome.kind === "refused") throw authenticationRequired();
  request.partnerApp = outcome.app;
  return outcome.app;
}

/** The authenticated app of a request whose route was authenticated by the hook. */
export function partnerOf(request: FastifyRequest): AuthenticatedApp {
  if (!request.partnerApp) throw authenticationRequired();
  return request.partnerApp;
}
