import type { FastifyInstance } from "fastify";
import type { GatewayDeps } from "../gateway-deps.js";

/** A group of routes, registered on a listener with the gateway's dependencies. */
export type RouteModule = (app: FastifyInstance, deps: GatewayDeps) => Promise<void> | void;
