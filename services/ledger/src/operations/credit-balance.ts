/** An operator credit of a partner's USD balance (money received from the partner). */
import { newId } from "@payouts/platform/ids";
import type { Dec } from "@payouts/platform/money/decimal";
import { invalidField, missingField } from "../domain/ledger-failure.js";
import { creditMovement } from "../domain/posting-rules.js";
import { storedDecimal } from "../domain/quote-terms.js";
import { balanceOf, ensureAccounts, lockBalance, postMovement } from "../store/ledger-store.js";
import { countMovement } from "../telemetry/ledger-metrics.js";
import type { LedgerDeps } from "./ledger-deps.js";

const MAX_REFERENCE_LENGTH = 500;

export async function creditBalance(
  deps: LedgerDeps,
  partnerId: string,
  amountUsd: string,
  reference: string,
): Promise<Dec> {
  if (!partnerId) throw missingField("partner_id");
  if (!amountUsd) throw missingField("amount_usd");
  const amount = storedDecimal(amountUsd, "amount_usd", "positive");
  if (reference.length > MAX_REFERENCE_LENGTH) {
    throw invalidField("reference", `must be at most ${MAX_REFERENCE_LENGTH} characters`);
  }
  const now = deps.now();
  const movement = creditMovement(amount);
  const balance = await deps.db.transaction(async (q) => {
    await ensureAccounts(q, partnerId);
    await lockBalance(q, partnerId);
    await postMovement(q, {
      movementId: newId("mov"),
      partnerId,
      txId: undefined,
      reference,
      movement,
      at: now,
    });
    return balanceOf(q, partnerId);
  });
  countMovement(movement);
  return balance;
}
