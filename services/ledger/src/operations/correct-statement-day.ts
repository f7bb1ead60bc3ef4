/**
 * An operator correction of a closed statement day, idempotent by key with the contract of creditBalance.
 * One database transaction posts the `adjustment` movement (on the balance, so its line posts on today's
 * open day and the original series keeps closing(d) = opening(d + 1)) and stores the restatement: a new
 * revision of the corrected day whose lines are the previous revision's followed by the adjustment's, its
 * summary and hash computed as a close computes them, `restates` naming the original. The original day is
 * never touched. A replay answers the revision the first call stored.
 */
import { newId } from "@payouts/platform/ids";
import type { Dec } from "@payouts/platform/money/decimal";
import { checkCreditFits } from "../domain/balance-limit.js";
import {
  invalidField,
  LEDGER,
  LedgerFailure,
  ledgerFailure,
  missingField,
} from "../domain/ledger-failure.js";
import { checkIdempotencyKey } from "../domain/payout-execution.js";
import { adjustmentMovement } from "../domain/posting-rules.js";
import { storedDecimal } from "../domain/quote-terms.js";
import { statementId, validDate } from "../domain/statement-days.js";
import { statementClosedEvent } from "../events/statement-event.js";
import { type KeyScope, storeKey } from "../store/idempotency-store.js";
import { ensureAccounts, lockBalance, postMovement } from "../store/ledger-store.js";
import { insertKeyedOutboxEvent } from "../store/outbox-store.js";
import {
  balanceEntryOf,
  claimRevisionEntries,
  dayRevision,
  insertClosedDay,
  lockPartnerStatements,
} from "../store/statement-day-store.js";
import { countMovement } from "../telemetry/ledger-metrics.js";
import { claimIdempotencyKey } from "./claim-idempotency-key.js";
import { summarise } from "./daily-statements.js";
import type { LedgerDeps } from "./ledger-deps.js";

export const CORRECT_STATEMENT_DAY_ROUTE = "POST /admin/partners/{partner_id}/statements/{date}/corrections";
/** Operator keys belong to no partner (the partner is part of the fingerprint), as for credits. */
const OPERATOR_SCOPE = "";
const MAX_NOTE_LENGTH = 500;

export interface CorrectStatementDayInput {
  readonly partnerId: string;
  readonly date: string;
  /** Signed decimal, not 0. */
  readonly amountUsd: string;
  readonly note: string;
  readonly idempotencyKey: string;
  readonly fingerprint: string;
  readonly requestId: string;
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
  if (input.note.length > MAX_NOTE_LENGTH) {
    throw invalidField("note", `must be at most ${MAX_NOTE_LENGTH} characters`);
  }
  const scope: KeyScope = {
    partnerId: OPERATOR_SCOPE,
    route: CORRECT_STATEMENT_DAY_ROUTE,
    key: input.idempotencyKey,
  };
  const now = deps.now();
  const movement = adjustmentMovement(amount);
  const result = await deps.db.transaction(async (q): Promise<CorrectStatementDayResult> => {
    const stored = await claimIdempotencyKey(q, scope, input.fingerprint, now);
    if (stored) {
      // Corrections store successes only (every refusal happens before the key is stored).
      if (stored.outcome.state !== "succeeded")
        throw new Error(`correction key ${input.idempotencyKey} stored a refusal`);
      const first = JSON.parse(new TextDecoder().decode(stored.outcome.response)) as StoredAnswer;
      return {
        statementId: first.statement_id,
        revision: first.revision,
        restates: first.restates,
        replayed: true,
      };
    }
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
    const movementId = newId("mov");
    await postMovement(q, {
      movementId,
      partnerId: input.partnerId,
      txId: undefined,
      reference: input.note,
      movement,
      at: now,
    });
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
    const event = statementClosedEvent(day, newId("evt"), now);
    await insertKeyedOutboxEvent(q, {
      eventId: event.eventId,
      eventKey: id,
      sequence: event.sequence,
      eventType: event.eventType,
      payload: event.payload,
      headers: { "event-id": event.eventId, "event-type": event.eventType },
    });
    const answer: StoredAnswer = { statement_id: id, revision, restates: original };
    await storeKey(
      q,
      scope,
      {
        fingerprint: input.fingerprint,
        subject: { movementId },
        requestId: input.requestId,
        outcome: { state: "succeeded", response: new TextEncoder().encode(JSON.stringify(answer)) },
      },
      now,
      null,
    );
    return { statementId: id, revision, restates: original, replayed: false };
  });
  if (!result.replayed) countMovement(movement);
  return result;
}
