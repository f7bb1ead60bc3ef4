/**
 * When a VALIDATED batch expires (batch-expiry then makes it EXPIRED). Pure.
 *
 * A batch with a payable item expires at its earliest payable quote's expiry: approval must fund every
 * item at a live quote. A batch with nothing to pay (every item INVALID or EXCLUDED) cannot be approved
 * (BATCH_NOT_VALIDATED, "no payable item"); it can be edited (new or replaced items are validated again)
 * or cancelled, and it expires `idleTtlMs` after validation (PENDING_TTL_MS, as long as a PENDING
 * transaction waits) instead of staying VALIDATED for good.
 */
export function validatedExpiry(
  earliestPayableQuote: Date | null,
  validatedAt: Date,
  idleTtlMs: number,
): Date {
  return earliestPayableQuote ?? new Date(validatedAt.getTime() + idleTtlMs);
}
