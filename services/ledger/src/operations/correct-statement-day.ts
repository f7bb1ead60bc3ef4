/**
 * An operator correction of a closed statement day, idempotent by key (postOperatorMovement, as credits).
 * One database transaction posts the `adjustment` movement (on the balance, so its line posts on today's
 * open day and the original series keeps closing(d) = opening(d + 1)) and stores the restatement: a new
 * revision of the corrected day whose lines are the previous revision's followed by the adjustment's, its
 * summary and hash computed as a close computes them, `restates` naming the original. The original day is
 * never touched. A replay answers the revision the first call stored.
 */
import type { Dec } from "@payouts/platform/money/decimal";
import { checkCreditFits } from "../domain/balance-limit.js";
import { LEDGER, LedgerFailure, ledgerFailure, missingField } from "../domain/ledger-failure.js";
import { checkIdempotencyKey } from "../domain/payout-execution.js";
import { adjustmentMovement } from "../domain/posting-rules.js";
import { storedDecimal } from "../domain/quote-terms.js";
import { statementId, validDate } from "../domain/statement-days.js";
import { statementClosedOutboxRow } from "../events/statement-event.js";
import { ensureAccounts, lockBalance } from "../store/ledger-store.js";
import { insertKeyedOutboxEvent } from "../store/outbox-store.js";
import {
  balanceEntryOf,
  claimRevisionEntries,
  dayRevision,
  insertClosedDay,
  lockPartnerStatements,
} from "../store/statement-day-store.js";
import { summarise } from "./daily-statements.js";
import type { LedgerDeps } from "./ledger-deps.js";
import { type OperatorKeyedInput, postOperatorMovement } from "./operator-keyed-movement.js";

export const CORRECT_STATEMENT_DAY_ROUTE = "POST /admin/partners/{partner_id}/statements/{date}/corrections";

export interface CorrectStatementDayInput extends OperatorKeyedInput {
  readonly date: string;
  /** Signed decimal, not 0. */
  readonly amountUsd: string;
  readonly note: string;
}

export interface CorrectStatementDayResult {
  /** The restatement this correction stored (a replay repeats the first answer). */
  readonly statementId: string;
  readonly revision: number;
  readonly restates: string;
  readonly replayed: boolean;
}

interface StoredAnswer {
  readonly statement_id: string;
  readonly revision: number;
  readonly restates: string;
}

/** The signed amount: a plain decimal with the stored scale, not 0. */
function correctionAmount(text: string): Dec {
  if (!text) throw missingField("amount_usd");
  const negative = text.startsWith("-");
  const magnitude = storedDecimal(negative ? text.slice(1) : text, "amount_usd", "positive");
  return negative ? magnitude.neg() : magnitude;
}

export async function correctStatementDay(
  deps: LedgerDeps,
  input: CorrectStatementDayInput,
): Promise<CorrectStatementDayResult> {
  if (!input.partnerId) throw missingField("partner_id");
  validDate(input.date);
  checkIdempotencyKey(input.idempotencyKey, input.fingerprint);
  const amount = correctionAmount(input.amountUsd);
  return postOperatorMovement(deps, input, {
    route: CORRECT_STATEMENT_DAY_ROUTE,
    what: "correction",
    movement: adjustmentMovement(amount),
    reference: { field: "note", text: input.note },
    write: async ({ q, now, post }) => {
      await lockPartnerStatements(q, input.partnerId);
      const previous = await dayRevision(q, input.partnerId, input.date, "latest");
      if (!previous) throw ledgerFailure(LEDGER.of("STATEMENT_DAY_NOT_CLOSED", input.date));
      await ensureAccounts(q, input.partnerId);
      const balance = await lockBalance(q, input.partnerId);
      if (balance.plus(amount).isNegative()) {
        throw new LedgerFailure(
          "INSUFFICIENT_FUNDS",
          `balance is lower than the correction of ${amount.neg().toFixed()} USD`,
        );
      }
      checkCreditFits(balance, amount);
      const movementId = await post();
      const revision = previous.revision + 1;
      const id = statementId(input.partnerId, input.date, revision);
      const original = previous.restates ?? previous.statementId;
      await claimRevisionEntries(q, id, previous, await balanceEntryOf(q, movementId));
      const summary = await summarise(
        q,
        { kind: "revision", statementId: id },
        previous.summary.openingBalance,
      );
      const day = { ...previous, statementId: id, revision, restates: original, summary };
      if (!(await insertClosedDay(q, day, now))) throw new Error(`revision ${id} already stored`);
      await insertKeyedOutboxEvent(q, statementClosedOutboxRow(day, now));
      const answer: StoredAnswer = { statement_id: id, revision, restates: original };
      return {
        answer: { statementId: id, revision, restates: original },
        stored: new TextEncoder().encode(JSON.stringify(answer)),
      };
    },
    replay: (stored) => {
      const first = JSON.parse(new TextDecoder().decode(stored)) as StoredAnswer;
      return { statementId: first.statement_id, revision: first.revision, restates: first.restates };
    },
  });
}
