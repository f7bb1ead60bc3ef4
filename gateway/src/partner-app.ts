import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { authenticate } from "./auth/partner-auth.js";
import type { GatewayDeps } from "./gateway-deps.js";
import { installEdge, requestIdFor } from "./http/install-edge.js";
import { PARTNER_ROUTE_MODULES } from "./routes/partner-route-modules.js";

/** The public partner listener: Basic-authenticated JSON routes of the seed and DESIGN.md §4. */
export async function buildPartnerApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    disableRequestLogging: true,
    genReqId: (req) => requestIdFor(req.headers["x-request-id"]),
    bodyLimit: 256 * 1024,
    return503OnClosing: true,
  });
  installEdge(app, deps.logger);
  app.addHook("preHandler", async (request) => {
    const mode = request.routeOptions.config.auth ?? "hook";
    if (mode === "hook") await authenticate(request, deps.verifier);
  });
  for (const register of PARTNER_ROUTE_MODULES) await register(app, deps);
  return app;
}
