import type { FastifyRequest } from "fastify";

/** What an admin caller may do, from least to most: each role can do everything the roles before it can. */
export const OPERATOR_ROLES = ["viewer", "operator", "finance", "admin"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * Who is calling the admin API: a named operator (a person, signed in) or a machine credential (a named
 * bearer token for scripts). Every admin action is attributed to one actor.
 */
export interface AdminActor {
  /** Stable id: `op_…` for an operator, `mc_…` for a machine credential. */
  readonly id: string;
  /** Display name: the operator's user name or the credential's name. */
  readonly name: string;
  readonly kind: "operator" | "machine";
  readonly role: OperatorRole;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Set by the admin listener's access check before any non-public route runs. */
    adminActor?: AdminActor;
  }
}

/** The actor of an admin request that passed the access check. */
export function actorOf(request: FastifyRequest): AdminActor {
  const actor = request.adminActor;
  if (actor === undefined) throw new Error("admin route reached without an authenticated actor");
  return actor;
}

/** Whether `held` may do what needs `needed` (roles are ordered: each includes the ones before it). */
export function hasRole(held: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(held) >= OPERATOR_ROLES.indexOf(needed);
}

export function isOperatorRole(value: unknown): value is OperatorRole {
  return typeof value === "string" && (OPERATOR_ROLES as readonly string[]).includes(value);
}
