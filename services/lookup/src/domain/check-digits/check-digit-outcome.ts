/** What a check-digit routine says about a value: valid, or why not (a phrase a partner can act on). */
export type CheckDigitOutcome = { readonly valid: true } | { readonly valid: false; readonly reason: string };

export const VALID: CheckDigitOutcome = { valid: true };

export const invalid = (reason: string): CheckDigitOutcome => ({ valid: false, reason });
