import { createHash, timingSafeEqual } from "node:crypto";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { ADMIN_ROUTE_MODULES } from "./admin/admin-route-modules.js";
import type { GatewayDeps } from "./gateway-deps.js";
import { ApiError } from "./http/api-error.js";
import { installEdge, requestIdFor } from "./http/install-edge.js";

/**
 * The internal admin listener: operators' routes behind `Authorization: Bearer $ADMIN_TOKEN`, plus
 * unauthenticated `/healthz` (process alive) and `/readyz` (database reachable) for probes.
 */
export async function buildAdminApp(
  deps: GatewayDeps,
  readiness: () => Promise<boolean>,
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    disableRequestLogging: true,
    genReqId: (req) => requestIdFor(req.headers["x-request-id"]),
    bodyLimit: 256 * 1024,
  });
  installEdge(app, deps.logger);
  const expected = createHash("sha256").update(deps.config.adminToken).digest();
  app.addHook("onRequest", async (request) => {
    if (!request.url.startsWith("/admin/")) return;
    const match = /^Bearer\s+(\S+)$/.exec(request.headers.authorization ?? "");
    const given = createHash("sha256")
      .update(match?.[1] ?? "")
      .digest();
    if (!match || !timingSafeEqual(given, expected)) {
      throw new ApiError(
        401,
        "AUTHENTICATION_REQUIRED",
        "a valid admin bearer token is required",
        undefined,
        {
          "WWW-Authenticate": 'Bearer realm="payouts-admin"',
        },
      );
    }
  });
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_request, reply) => {
    const ready = await readiness().catch(() => false);
    return reply.code(ready ? 200 : 503).send({ status: ready ? "ready" : "not_ready" });
  });
  for (const register of ADMIN_ROUTE_MODULES) await register(app, deps);
  return app;
}
