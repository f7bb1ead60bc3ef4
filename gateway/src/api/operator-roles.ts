/** What an admin caller may do, from least to most: each role can do everything the roles before it can. */
export const OPERATOR_ROLES = ["viewer", "operator", "finance", "admin"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Whether `held` may do what needs `needed` (roles are ordered: each includes the ones before it). */
export function hasRole(held: OperatorRole, needed: OperatorRole): boolean {
  return OPERATOR_ROLES.indexOf(held) >= OPERATOR_ROLES.indexOf(needed);
}

export function isOperatorRole(value: unknown): value is OperatorRole {
  return typeof value === "string" && (OPERATOR_ROLES as readonly string[]).includes(value);
}
