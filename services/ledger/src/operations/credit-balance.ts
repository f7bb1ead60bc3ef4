/**
 * An operator credit of a partner's USD balance (money received from the partner), idempotent by key
 * (postOperatorMovement): the key record, the credit movement and its entries are one database
 * transaction, so a key credits at most once, and a replay answers the balance the first call answered.
 *
 * A credit's key never expires: a retry of a credit, however late, replays the first answer instead of
 * crediting again. Keys are scoped to the operator, not to the partner: a key reused for another partner is
 * IDEMPOTENCY_KEY_REUSED rather than a second credit.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { toDecimalString } from "@payouts/platform/money/decimal";
import { CreditBalanceResponseSchema } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { checkCreditAmount, checkCreditFits } from "../domain/balance-limit.js";
import { missingField } from "../domain/ledger-failure.js";
import { checkIdempotencyKey } from "../domain/payout-execution.js";
import { creditMovement } from "../domain/posting-rules.js";
import { storedDecimal } from "../domain/quote-terms.js";
import { balanceOf, ensureAccounts, lockBalance } from "../store/ledger-store.js";
import type { LedgerDeps } from "./ledger-deps.js";
import { type OperatorKeyedInput, postOperatorMovement } from "./operator-keyed-movement.js";

export const CREDIT_BALANCE_ROUTE = "POST /admin/partners/{partner_id}/balance/credits";

export interface CreditBalanceInput extends OperatorKeyedInput {
  readonly amountUsd: string;
  readonly reference: string;
}

export interface CreditBalanceResult {
  /** The balance right after this credit, full precision (a replay repeats the first answer). */
  readonly balanceUsd: string;
  readonly replayed: boolean;
}

export async function creditBalance(
  deps: LedgerDeps,
  input: CreditBalanceInput,
): Promise<CreditBalanceResult> {
  if (!input.partnerId) throw missingField("partner_id");
  checkIdempotencyKey(input.idempotencyKey, input.fingerprint);
  if (!input.amountUsd) throw missingField("amount_usd");
  checkCreditAmount(input.amountUsd);
  const amount = storedDecimal(input.amountUsd, "amount_usd", "positive");
  return postOperatorMovement(deps, input, {
    route: CREDIT_BALANCE_ROUTE,
    what: "credit",
    movement: creditMovement(amount),
    reference: { field: "reference", text: input.reference },
    write: async ({ q, post }) => {
      await ensureAccounts(q, input.partnerId);
      checkCreditFits(await lockBalance(q, input.partnerId), amount);
      await post();
      const balanceUsd = toDecimalString(await balanceOf(q, input.partnerId));
      const response = create(CreditBalanceResponseSchema, { balanceUsd });
      return { answer: { balanceUsd }, stored: toBinary(CreditBalanceResponseSchema, response) };
    },
    replay: (stored) => ({ balanceUsd: fromBinary(CreditBalanceResponseSchema, stored).balanceUsd }),
  });
}
