import fastifyCookie from "@fastify/cookie";
import { createHttpServerTelemetry } from "@payouts/platform/telemetry/http-server-telemetry";
import { activeTelemetry } from "@payouts/platform/telemetry/start-telemetry";
import type { FastifyInstance } from "fastify";
import { installAdminAccess } from "./admin/admin-access.js";
import { ADMIN_ROUTE_MODULES } from "./admin/admin-route-modules.js";
import { registerConsole } from "./admin/console-static.js";
import { addRoute, fastifyPath } from "./api/operation.js";
import { installAuditTrail } from "./audit/audit-trail.js";
import { createListener } from "./create-listener.js";
import type { GatewayDeps } from "./gateway-deps.js";
import { ApiError } from "./http/api-error.js";
import { adminOpenApiDocument } from "./openapi/openapi-document.js";
import { adminOpenApi, healthz, metrics, readyz } from "./operations/admin/admin-listener-api.js";
import { exportAudit } from "./operations/admin/audit-api.js";

/**
 * The internal admin listener: every route behind `Authorization: Bearer $ADMIN_TOKEN` (admin/admin-access.ts),
 * except the allowlisted `/healthz` (process alive) and `/readyz` (database reachable) for probes, and
 * `/metrics` (Prometheus) when telemetry runs in this process, and the operator console's static files at
 * `/console` (admin/console-static.ts), whose API calls carry the token like any other client's. Every
 * state-changing request is recorded in the audit trail (audit/audit-trail.ts).
 */
export async function buildAdminApp(
  deps: GatewayDeps,
  readiness: () => Promise<boolean>,
): Promise<FastifyInstance> {
  const app = createListener(deps);
  const telemetry = createHttpServerTelemetry("admin");
  app.addHook("onRequest", async (request) => {
    telemetry.started(request.method, request.routeOptions.url, request.id);
  });
  app.addHook("onResponse", async (request, reply) => {
    telemetry.finished({
      method: request.method,
      route: request.routeOptions.url,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
  });
  await app.register(fastifyCookie);
  installAdminAccess(app, deps);
  // Every state-changing request (and every export of the trail) is recorded, whatever its route.
  installAuditTrail(app, deps.db, { recordedReads: [fastifyPath(exportAudit.path)] });
  addRoute(app, healthz, async () => ({ status: "ok" }), { public: true });
  addRoute(
    app,
    readyz,
    async (_request, reply) => {
      const ready = await readiness().catch(() => false);
      return reply.code(ready ? 200 : 503).send({ status: ready ? "ready" : "not_ready" });
    },
    { public: true },
  );
  addRoute(
    app,
    metrics,
    async (request, reply) => {
      const running = activeTelemetry();
      if (!running) throw new ApiError(404, "NOT_FOUND", "telemetry is not running in this process");
      const source = await running;
      reply.hijack();
      // A hijacked reply skips Fastify's headers; every answer still carries X-Request-Id.
      reply.raw.setHeader("X-Request-Id", request.id);
      source.serveMetrics(request.raw, reply.raw);
    },
    { public: true },
  );
  // Behind the token like every admin route (admin-access.ts): the document maps the operator surface.
  const document = JSON.stringify(adminOpenApiDocument());
  addRoute(app, adminOpenApi, async (_request, reply) =>
    reply.type("application/json; charset=utf-8").header("Cache-Control", "no-store").send(document),
  );
  for (const register of ADMIN_ROUTE_MODULES) await register(app, deps);
  await registerConsole(app, deps.config.consoleDir);
  return app;
}
