/**
 * Outcome of a domain rule. Rules return failures as values so handlers and the config loader can map
 * them (to a partner error code, or a startup failure) without catching exceptions.
 */

/** A rule violation with a stable code (see DESIGN.md §4) and, when one field is at fault, its name. */
export interface DomainError {
  readonly code: string;
  readonly message: string;
  readonly field?: string;
}

export type Result<T, E = DomainError> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });

export const fail = (code: string, message: string, field?: string): Result<never> => ({
  ok: false,
  error: field === undefined ? { code, message } : { code, message, field },
});
