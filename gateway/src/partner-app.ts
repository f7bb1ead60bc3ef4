import { createHttpServerTelemetry } from "@payouts/platform/telemetry/http-server-telemetry";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { authenticate } from "./auth/partner-auth.js";
import { createListener } from "./create-listener.js";
import type { GatewayDeps } from "./gateway-deps.js";
import { PARTNER_ROUTE_MODULES } from "./routes/partner-route-modules.js";

/** The public partner listener: Basic-authenticated JSON routes of the partner API. */
export async function buildPartnerApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app = createListener(deps, {
    return503OnClosing: true,
    // The client address (request.ip) keys the failed-login throttle; behind a proxy it comes from
    // X-Forwarded-For, trusted for exactly TRUST_PROXY_HOPS hops.
    trustProxy: (_address: string, hop: number) => hop < deps.config.trustProxyHops,
  });
  const telemetry = createHttpServerTelemetry("partner");
  app.addHook("onRequest", async (request) => {
    telemetry.started(request.method, request.routeOptions.url, request.id);
  });
  // Basic credentials are in the headers, so they are checked before the body is read: a client without
  // them cannot make the listener wait for (or parse) a body. An unread body is not drained: the refusal
  // closes the connection.
  app.addHook("onRequest", async (request, reply) => {
    if ((request.routeOptions.config.auth ?? "hook") !== "hook") return;
    try {
      await authenticate(request, deps.verifier);
    } catch (error) {
      if (hasBody(request)) reply.header("connection", "close");
      throw error;
    }
  });
  app.addHook("preHandler", async (request) => {
    telemetry.identified({ partnerId: request.partnerApp?.partnerId, txId: txIdOf(request) });
  });
  app.addHook("onResponse", async (request, reply) => {
    telemetry.identified({ partnerId: request.partnerApp?.partnerId });
    telemetry.finished({
      method: request.method,
      route: request.routeOptions.url,
      status: reply.statusCode,
      seconds: reply.elapsedTime / 1000,
    });
  });
  for (const register of PARTNER_ROUTE_MODULES) await register(app, deps);
  return app;
}

function txIdOf(request: FastifyRequest): unknown {
  const params = request.params as { tx_id?: unknown } | undefined;
  const body = request.body as { tx_id?: unknown } | null | undefined;
  return params?.tx_id ?? (typeof body === "object" ? body?.tx_id : undefined);
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers["content-length"];
  return request.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}
