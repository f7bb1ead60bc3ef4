/**
 * Removes the spaces and hyphens people use to group account numbers ("0123 4567-89"). The result is
 * not checked: callers apply their own digit and length rules.
 */
export const compactAccountNumber = (raw: string): string => raw.replace(/[\s-]/g, "");
