/**
 * What a failed validation step means for the item: a refusal the partner must fix (the item is INVALID
 * with the code and field lookupPaymentCode or getQuotation would have answered), or an outage, after which
 * the item is validated again later and never marked INVALID. No I/O.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { LedgerFailure } from "../../domain/ledger-failure.js";

export type ValidationFailure =
  | { readonly kind: "invalid"; readonly code: string; readonly field: string; readonly message: string }
  | { readonly kind: "retry"; readonly why: string };

const OUTAGE_REASONS: ReadonlySet<string> = new Set(["SERVICE_UNAVAILABLE", "RATE_LIMIT_EXCEEDED"]);
const OUTAGE_CODES: ReadonlySet<Code> = new Set([
  Code.Unavailable,
  Code.DeadlineExceeded,
  Code.Aborted,
  Code.Canceled,
  Code.ResourceExhausted,
]);

export function classifyValidationError(error: unknown): ValidationFailure {
  if (error instanceof LedgerFailure) {
    return OUTAGE_REASONS.has(error.reason)
      ? { kind: "retry", why: error.message }
      : { kind: "invalid", code: error.reason, field: error.field ?? "", message: error.message };
  }
  if (error instanceof ConnectError) {
    const detail = errorDetailOf(error);
    if (
      detail &&
      !OUTAGE_REASONS.has(detail.reason) &&
      !OUTAGE_CODES.has(error.code) &&
      detail.reason !== ""
    ) {
      return { kind: "invalid", code: detail.reason, field: detail.field, message: error.rawMessage };
    }
    return { kind: "retry", why: error.rawMessage };
  }
  // Anything else is the ledger's own fault or an unknown outage: never the partner's item's.
  return { kind: "retry", why: error instanceof Error ? error.message : String(error) };
}
