import type { FastifyRequest } from "fastify";
import { ApiError } from "../http/api-error.js";
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

export async function authenticate(
  request: FastifyRequest,
  verifier: CredentialVerifier,
): Promise<AuthenticatedApp> {
  if (request.partnerApp) return request.partnerApp;
  const creds = parseBasicCredentials(request.headers.authorization);
  if (!creds) throw authenticationRequired();
  const app = await verifier.verify(creds.clientId, creds.secret);
  if (!app) throw authenticationRequired();
  request.partnerApp = app;
  return app;
}

/** The authenticated app of a request whose route was authenticated by the hook. */
export function partnerOf(request: FastifyRequest): AuthenticatedApp {
  if (!request.partnerApp) throw authenticationRequired();
  return request.partnerApp;
}
