import type { FastifyReply, FastifyRequest } from "fastify";
import type { GatewayConfig } from "../gateway-config.js";
import type { SessionPolicy } from "../operators/operator-sessions.js";

/** The operator session cookie: HttpOnly, SameSite=Strict, Secure when operators reach the listener by https. */
export const SESSION_COOKIE = "payouts_admin_session";

/**
 * The header the console sends on every state-changing request; a cookie-authenticated request without it
 * is refused (admin-access.ts). Any value is accepted: what matters is that a browser sends a custom header
 * cross-site only after a CORS preflight, which the admin listener never answers.
 */
export const CSRF_HEADER = "X-Requested-With";

export const hasCsrfHeader = (request: FastifyRequest): boolean => {
  const value = request.headers[CSRF_HEADER.toLowerCase()];
  return typeof value === "string" && value.trim() !== "";
};

export function sessionPolicyOf(config: GatewayConfig): SessionPolicy {
  return {
    ttlMs: config.adminSessionTtlMs,
    idleMs: config.adminSessionIdleMs,
    rotateMs: config.adminSessionRotateMs,
  };
}

export function readSessionCookie(request: FastifyRequest): string | undefined {
  const value = request.cookies?.[SESSION_COOKIE];
  return value === undefined || value === "" ? undefined : value;
}

const secure = (config: GatewayConfig): boolean => config.adminPublicOrigin?.startsWith("https:") === true;

export function setSessionCookie(reply: FastifyReply, sessionId: string, config: GatewayConfig): void {
  reply.setCookie(SESSION_COOKIE, sessionId, {
    path: "/",
    httpOnly: true,
    sameSite: "strict",
    secure: secure(config),
    maxAge: Math.floor(config.adminSessionTtlMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: GatewayConfig): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: "/",
    httpOnly: true,
    sameSite: "strict",
    secure: secure(config),
  });
}
