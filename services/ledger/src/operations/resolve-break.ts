/**
 * Resolving a reconciliation break: the operator's note, who and when, written once. Resolving says the
 * break was looked into and needs nothing more from reconciliation; it moves no money (a correction is a
 * refund, a failure or a credit of its own). A resolved break stays resolved when later runs find it again.
 */
import { LEDGER, ledgerFailure } from "../domain/ledger-failure.js";
import { findBreak, insertResolution, type StoredBreak } from "../store/reconciliation-store.js";
import type { LedgerDeps } from "./ledger-deps.js";

export async function resolveBreak(
  deps: Pick<LedgerDeps, "db" | "now">,
  input: { breakId: string; note: string; resolvedBy: string },
): Promise<StoredBreak> {
  const found = await findBreak(deps.db, input.breakId);
  if (!found) throw ledgerFailure(LEDGER.of("RECONCILIATION_BREAK_NOT_FOUND", input.breakId));
  const inserted = await insertResolution(deps.db, input.breakId, {
    note: input.note,
    resolvedBy: input.resolvedBy,
    resolvedAt: deps.now(),
  });
  if (!inserted) throw ledgerFailure(LEDGER.of("BREAK_ALREADY_RESOLVED", input.breakId));
  return (await findBreak(deps.db, input.breakId)) as StoredBreak;
}
