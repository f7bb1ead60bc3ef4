/**
 * An operator credit of a partner's USD balance (money received from the partner), idempotent by key with
 * the contract of executePayout: the key record, the credit movement and its entries are one database
 * transaction, so a key credits at most once, and a replay answers the balance the first call answered.
 *
 * A credit's key never expires (stored without expires_at, so the retention job keeps it): a retry of a
 * credit, however late, replays the first answer instead of crediting again. Credits are rare operator
 * actions, so keeping their keys costs little.
 *
 * Keys are scoped to the operator (one key space for every admin caller), not to the partner: the partner
 * is part of the request fingerprint, so a key reused for another partner is IDEMPOTENCY_KEY_REUSED
 * rather than a second credit.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { newId } from "@payouts/platform/ids";
import { toDecimalString } from "@payouts/platform/money/decimal";
import { CreditBalanceResponseSchema } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { checkCreditAmount, checkCreditFits } from "../domain/balance-limit.js";
import { invalidField, missingField } from "../domain/ledger-failure.js";
import { checkIdempotencyKey } from "../domain/payout-execution.js";
import { creditMovement } from "../domain/posting-rules.js";
import { storedDecimal } from "../domain/quote-terms.js";
import { type KeyScope, storeKey } from "../store/idempotency-store.js";
import { balanceOf, ensureAccounts, lockBalance, postMovement } from "../store/ledger-store.js";
import { countMovement } from "../telemetry/ledger-metrics.js";
import { claimIdempotencyKey } from "./claim-idempotency-key.js";
import type { LedgerDeps } from "./ledger-deps.js";

export const CREDIT_BALANCE_ROUTE = "POST /admin/partners/{partner_id}/balance/credits";
/** The key scope's partner column for operator keys: they belong to no partner. */
const OPERATOR_SCOPE = "";
const MAX_REFERENCE_LENGTH = 500;

export interface CreditBalanceInput {
  readonly partnerId: string;
  readonly amountUsd: string;
  readonly reference: string;
  readonly idempotencyKey: string;
  readonly fingerprint: string;
  readonly requestId: string;
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
  if (input.reference.length > MAX_REFERENCE_LENGTH) {
    throw invalidField("reference", `must be at most ${MAX_REFERENCE_LENGTH} characters`);
  }
  const scope: KeyScope = {
    partnerId: OPERATOR_SCOPE,
    route: CREDIT_BALANCE_ROUTE,
    key: input.idempotencyKey,
  };
  const now = deps.now();
  const movement = creditMovement(amount);
  const result = await deps.db.transaction(async (q): Promise<CreditBalanceResult> => {
    const stored = await claimIdempotencyKey(q, scope, input.fingerprint, now);
    if (stored) {
      // Credits store successes only (every refusal happens before the key is taken).
      if (stored.outcome.state !== "succeeded")
        throw new Error(`credit key ${input.idempotencyKey} stored a refusal`);
      const first = fromBinary(CreditBalanceResponseSchema, stored.outcome.response);
      return { balanceUsd: first.balanceUsd, replayed: true };
    }
    const movementId = newId("mov");
    await ensureAccounts(q, input.partnerId);
    checkCreditFits(await lockBalance(q, input.partnerId), amount);
    await postMovement(q, {
      movementId,
      partnerId: input.partnerId,
      txId: undefined,
      reference: input.reference,
      movement,
      at: now,
    });
    const balanceUsd = toDecimalString(await balanceOf(q, input.partnerId));
    await storeKey(
      q,
      scope,
      {
        fingerprint: input.fingerprint,
        subject: { movementId },
        requestId: input.requestId,
        outcome: {
          state: "succeeded",
          response: toBinary(
            CreditBalanceResponseSchema,
            create(CreditBalanceResponseSchema, { balanceUsd }),
          ),
        },
      },
      now,
      null,
    );
    return { balanceUsd, replayed: false };
  });
  if (!result.replayed) countMovement(movement);
  return result;
}
