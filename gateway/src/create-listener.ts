import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  LogController,
} from "fastify";
import { listenerLimitsOf } from "./gateway-config.js";
import type { GatewayDeps } from "./gateway-deps.js";
import { answerClientError, answerFrameworkError, installEdge, requestIdFor } from "./http/install-edge.js";
import { capConnectionsPerAddress, listenerTimeoutOptions } from "./http/listener-limits.js";

/**
 * A listener as both the partner and the admin one start: the configured timeouts and per-address
 * connection cap, the process logger without a line per request, the request id from X-Request-Id, a
 * 256 KiB body limit and the edge's answers to malformed requests; `options` adds the listener's own.
 */
export function createListener(
  deps: Pick<GatewayDeps, "config" | "logger">,
  options: Pick<FastifyServerOptions, "return503OnClosing" | "trustProxy"> = {},
): FastifyInstance {
  const limits = listenerLimitsOf(deps.config);
  const app = Fastify({
    ...listenerTimeoutOptions(limits),
    loggerInstance: deps.logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => requestIdFor(req.headers["x-request-id"]),
    bodyLimit: 256 * 1024,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    ...options,
  });
  capConnectionsPerAddress(app.server, limits.maxConnectionsPerAddress);
  installEdge(app, deps.logger);
  return app;
}
