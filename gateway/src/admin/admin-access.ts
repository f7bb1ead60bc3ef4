import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ApiError } from "../http/api-error.js";
import type { AdminActor } from "./admin-actor.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Admin listener only: the route answers without the admin token. Allowed on PUBLIC_ADMIN_PATHS only. */
    public?: boolean;
  }
}

/**
 * The only admin paths a route may mark `public: true`: the probes, the Prometheus scrape and the operator
 * console's static files (console-static.ts: the app's HTML, scripts and styles, no data). Any other route,
 * whenever and however it is registered, requires the token.
 */
export const PUBLIC_ADMIN_PATHS: ReadonlySet<string> = new Set([
  "/healthz",
  "/readyz",
  "/metrics",
  "/console",
  "/console/*",
]);

/** Public routes only read: a public route with any other method is refused at registration. */
const PUBLIC_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD"]);

/**
 * Authorization of the admin listener, keyed on the route the router matched and never on the URL text:
 * a request that reaches a route needs `Authorization: Bearer $ADMIN_TOKEN` unless that route is marked
 * `public` (which registration refuses outside the allowlist). Whatever the URL spelling (percent-encoded,
 * dot segments, absolute form), the router's match decides, so no spelling reaches a route without the
 * check. A request that matches no route gets the 404 error body, which reveals nothing. Call this before
 * registering any route.
 */
export function installAdminAccess(app: FastifyInstance, adminToken: string): void {
  const expected = digest(adminToken);
  app.addHook("onRoute", (route) => {
    if (route.config?.public !== true) return;
    const methods = [route.method].flat();
    if (!PUBLIC_ADMIN_PATHS.has(route.url) || !methods.every((m) => PUBLIC_METHODS.has(m))) {
      throw new Error(
        `admin route ${methods.join(",")} ${route.url} is marked public but is not on the allowlist (GET or HEAD of ${[...PUBLIC_ADMIN_PATHS].join(", ")})`,
      );
    }
  });
  app.addHook("onRequest", async (request) => {
    if (request.is404 || request.routeOptions.config.public === true) return;
    if (!hasToken(request, expected)) throw adminTokenRequired();
    request.adminActor = ADMIN_TOKEN_ACTOR;
  });
}

/** The static admin token acts as one machine credential with every role. */
const ADMIN_TOKEN_ACTOR: AdminActor = {
  id: "mc_admin_token",
  name: "admin-token",
  kind: "machine",
  role: "admin",
};

function hasToken(request: FastifyRequest, expected: Buffer): boolean {
  const match = /^Bearer\s+(\S+)$/.exec(request.headers.authorization ?? "");
  // Compared as digests so the comparison takes the same time whatever the given token's length.
  return timingSafeEqual(digest(match?.[1] ?? ""), expected) && match !== null;
}

const digest = (token: string) => createHash("sha256").update(token).digest();

const adminTokenRequired = () =>
  new ApiError(401, "AUTHENTICATION_REQUIRED", "a valid admin bearer token is required", undefined, {
    "WWW-Authenticate": 'Bearer realm="payouts-admin"',
  });
