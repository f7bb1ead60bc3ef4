import { createHash, timingSafeEqual } from "node:crypto";
import type { Database } from "@payouts/platform/database/database";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { GatewayConfig } from "../gateway-config.js";
import { ApiError } from "../http/api-error.js";
import { tokenDigest } from "../operators/operator-secrets.js";
import { rotateSession, touchSession } from "../operators/operator-sessions.js";
import { findActiveMachineCredential } from "../operators/operator-store.js";
import { type AdminActor, hasRole, type OperatorRole } from "./admin-actor.js";
import {
  CSRF_HEADER,
  hasCsrfHeader,
  readSessionCookie,
  sessionPolicyOf,
  setSessionCookie,
} from "./session-cookie.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Admin listener only: the route answers without credentials. Allowed on the public allowlist only. */
    public?: boolean;
    /** Admin listener: the least role that may call the route (from its operation); absent = admin. */
    requiredRole?: OperatorRole;
  }
}

/**
 * The only admin paths a route may mark `public: true` for reading (GET, HEAD): the probes, the Prometheus
 * scrape and the operator console's static files (console-static.ts: the app's HTML, scripts and styles, no
 * data). Any other route, whenever and however it is registered, requires credentials.
 */
export const PUBLIC_ADMIN_PATHS: ReadonlySet<string> = new Set([
  "/healthz",
  "/readyz",
  "/metrics",
  "/console",
  "/console/*",
]);

/** The sign-in routes, public because they are how credentials are obtained: `METHOD path`. */
export const PUBLIC_SIGN_IN_ROUTES: ReadonlySet<string> = new Set([
  "POST /admin/session",
  "GET /admin/sign-in-options",
  "GET /admin/oidc/login",
  "GET /admin/oidc/callback",
]);

/** Public routes only read, but for the sign-in routes. */
const PUBLIC_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD"]);

/** Whether `METHOD path` (a route template) may answer without credentials. */
export function isPublicAdminRoute(method: string, path: string): boolean {
  if (PUBLIC_SIGN_IN_ROUTES.has(`${method} ${path}`)) return true;
  if (method === "HEAD" && PUBLIC_SIGN_IN_ROUTES.has(`GET ${path}`)) return true;
  return PUBLIC_ADMIN_PATHS.has(path) && PUBLIC_METHODS.has(method);
}

/**
 * Authentication and authorization of the admin listener, keyed on the route the router matched and never
 * on the URL text. A request reaching a non-public route needs credentials, checked in this order:
 *   - `Authorization: Bearer <token>`: the static ADMIN_TOKEN (or ADMIN_TOKEN_PREVIOUS during a rotation),
 *     a machine credential named "admin-token" with ADMIN_TOKEN_ROLE; else a named machine credential
 *     (`payouts machine-credentials add`), looked up by the token's SHA-256;
 *   - the operator session cookie: a live server-side session (operator-sessions.ts). A state-changing
 *     request (not GET/HEAD) authenticated by the cookie must also carry `X-Requested-With` (CSRF_HEADER),
 *     which a cross-site form cannot send and a cross-site script cannot send without a CORS preflight
 *     this listener never grants.
 * Then the actor's role must reach the route's `requiredRole` (from its operation's `role`), else 403
 * ROLE_FORBIDDEN naming the role needed, before any handler runs. Whatever the URL spelling, the
 * router's match decides. A request that matches no route gets the 404 error body, which reveals nothing.
 * Call this before registering any route.
 */
export function installAdminAccess(
  app: FastifyInstance,
  deps: { db: Database; config: GatewayConfig },
): void {
  const { db, config } = deps;
  const staticTokens = [config.adminToken, config.adminTokenPrevious]
    .filter((t): t is string => typeof t === "string" && t !== "")
    .map(digest);
  const tokenActor: AdminActor = { ...ADMIN_TOKEN_ACTOR, role: config.adminTokenRole };
  const policy = sessionPolicyOf(config);
  app.addHook("onRoute", (route) => {
    if (route.config?.public !== true) return;
    const methods = [route.method].flat();
    if (!methods.every((m) => isPublicAdminRoute(m, route.url ?? ""))) {
      throw new Error(
        `admin route ${methods.join(",")} ${route.url} is marked public but is not on the allowlist (GET or HEAD of ${[...PUBLIC_ADMIN_PATHS].join(", ")}; ${[...PUBLIC_SIGN_IN_ROUTES].join(", ")})`,
      );
    }
  });
  app.addHook("onRequest", async (request, reply) => {
    if (request.is404 || request.routeOptions.config.public === true) return;
    const actor = await authenticate(request, reply);
    // Known before the role check, so a refusal is attributed to who was refused (the audit trail).
    request.adminActor = actor;
    const needed = request.routeOptions.config.requiredRole ?? "admin";
    if (!hasRole(actor.role, needed)) throw roleForbidden(needed, actor.role);
  });

  async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<AdminActor> {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) {
      const token = /^Bearer\s+(\S+)$/.exec(authorization)?.[1];
      if (token === undefined) throw adminCredentialsRequired();
      if (matchesStaticToken(token)) return tokenActor;
      const credential = await findActiveMachineCredential(db, tokenDigest(token));
      if (!credential) throw adminCredentialsRequired();
      return { id: credential.credential_id, name: credential.name, kind: "machine", role: credential.role };
    }
    const cookie = readSessionCookie(request);
    if (cookie === undefined) throw adminCredentialsRequired();
    const session = await touchSession(db, cookie, policy);
    if (!session) throw adminCredentialsRequired();
    if (!SAFE_METHODS.has(request.method) && !hasCsrfHeader(request)) throw csrfHeaderRequired();
    if (session.rotationDue) {
      const rotated = await rotateSession(db, session.sessionHash);
      if (rotated !== undefined) setSessionCookie(reply, rotated, config);
    }
    request.adminSessionHash = session.sessionHash;
    return { id: session.operatorId, name: session.username, kind: "operator", role: session.role };
  }

  function matchesStaticToken(token: string): boolean {
    const given = digest(token);
    // Compared as digests, each in constant time, so the time taken says nothing about the tokens.
    return staticTokens.map((expected) => timingSafeEqual(given, expected)).includes(true);
  }
}

declare module "fastify" {
  interface FastifyRequest {
    /** The digest of the session id a cookie-authenticated admin request came with (for sign-out). */
    adminSessionHash?: string;
  }
}

const SAFE_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS"]);

/** The static admin token acts as one named machine credential, with ADMIN_TOKEN_ROLE (default admin). */
const ADMIN_TOKEN_ACTOR: AdminActor = {
  id: "mc_admin_token",
  name: "admin-token",
  kind: "machine",
  role: "admin",
};

const digest = (token: string) => createHash("sha256").update(token).digest();

export const adminCredentialsRequired = () =>
  new ApiError(
    401,
    "AUTHENTICATION_REQUIRED",
    "a valid admin bearer token or operator session is required",
    undefined,
    { "WWW-Authenticate": 'Bearer realm="payouts-admin"' },
  );

const roleForbidden = (needed: OperatorRole, held: OperatorRole) =>
  new ApiError(403, "ROLE_FORBIDDEN", `this action needs the ${needed} role; you have ${held}`);

const csrfHeaderRequired = () =>
  new ApiError(
    403,
    "CSRF_HEADER_REQUIRED",
    `a request authenticated by the session cookie that changes state must carry the ${CSRF_HEADER} header`,
  );
