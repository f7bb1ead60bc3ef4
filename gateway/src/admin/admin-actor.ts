import type { FastifyRequest } from "fastify";

import type { OperatorRole } from "../api/operator-roles.js";

// The roles are defined beside the operations that declare them; admin code imports them from here too.
export { hasRole, isOperatorRole, OPERATOR_ROLES, type OperatorRole } from "../api/operator-roles.js";

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
