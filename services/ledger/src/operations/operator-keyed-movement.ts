/**
 * The keyed write of an operator's movement (a balance credit, a statement-day correction), with the
 * idempotency contract of executePayout: the key record, the movement and what else the write stores are one
 * database transaction, so a key posts at most once and a replay answers what the first call answered.
 *
 * Keys belong to no partner (one key space for every admin caller): the partner is part of the request
 * fingerprint, so a key reused for another partner is IDEMPOTENCY_KEY_REUSED rather than a second movement.
 * They never expire (stored without expires_at, so the retention job keeps them): a retry, however late,
 * replays the first answer. Operator movements are rare, so keeping their keys costs little.
 */
import type { Queryable } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import { invalidField } from "../domain/ledger-failure.js";
import type { Movement } from "../domain/posting-rules.js";
import { type KeyScope, storeKey } from "../store/idempotency-store.js";
import { postMovement } from "../store/ledger-store.js";
import { countMovement } from "../telemetry/ledger-metrics.js";
import { claimIdempotencyKey } from "./claim-idempotency-key.js";
import type { LedgerDeps } from "./ledger-deps.js";

/** The key scope's partner column for operator keys: they belong to no partner. */
const OPERATOR_SCOPE = "";
/** Longest text an operator may give a movement (its reference: a credit's reference, a correction's note). */
const MAX_REFERENCE_LENGTH = 500;

/** An operator's idempotent request about one partner. */
export interface OperatorKeyedInput {
  readonly partnerId: string;
  readonly idempotencyKey: string;
  readonly fingerprint: string;
  readonly requestId: string;
}

/** What a write is given: its database transaction, its time, and `post`, which posts the movement once. */
export interface OperatorWrite {
  readonly q: Queryable;
  readonly now: Date;
  /** Posts the movement on the partner with its reference; returns the movement's id. */
  readonly post: () => Promise<string>;
}

export interface OperatorMovementSpec<A> {
  readonly route: string;
  /** Names the key in an internal error. */
  readonly what: string;
  readonly movement: Movement;
  /** The operator's text the movement carries, and the request field it came in. */
  readonly reference: { readonly field: string; readonly text: string };
  /** Checks, posts the movement and stores what goes with it; returns the answer and its stored form. */
  readonly write: (w: OperatorWrite) => Promise<{ readonly answer: A; readonly stored: Uint8Array }>;
  /** The answer a replay gives, from the stored form the first call kept. */
  readonly replay: (stored: Uint8Array) => A;
}

/**
 * Refuses a reference longer than 500 characters (INVALID_FIELD on its field), after the caller's checks.
 * Every refusal must happen before the key is taken (in the caller's checks or in `write`, which rolls the
 * key back with it), so a stored key always holds a success.
 */
export async function postOperatorMovement<A extends object>(
  deps: LedgerDeps,
  input: OperatorKeyedInput,
  spec: OperatorMovementSpec<A>,
): Promise<A & { readonly replayed: boolean }> {
  if (spec.reference.text.length > MAX_REFERENCE_LENGTH) {
    throw invalidField(spec.reference.field, `must be at most ${MAX_REFERENCE_LENGTH} characters`);
  }
  const scope: KeyScope = { partnerId: OPERATOR_SCOPE, route: spec.route, key: input.idempotencyKey };
  const now = deps.now();
  const result = await deps.db.transaction(async (q) => {
    const stored = await claimIdempotencyKey(q, scope, input.fingerprint, now);
    if (stored) {
      if (stored.outcome.state !== "succeeded")
        throw new Error(`${spec.what} key ${input.idempotencyKey} stored a refusal`);
      return { ...spec.replay(stored.outcome.response), replayed: true };
    }
    const movementId = newId("mov");
    const post = async (): Promise<string> => {
      await postMovement(q, {
        movementId,
        partnerId: input.partnerId,
        txId: undefined,
        reference: spec.reference.text,
        movement: spec.movement,
        at: now,
      });
      return movementId;
    };
    const { answer, stored: response } = await spec.write({ q, now, post });
    await storeKey(
      q,
      scope,
      {
        fingerprint: input.fingerprint,
        subject: { movementId },
        requestId: input.requestId,
        outcome: { state: "succeeded", response },
      },
      now,
      null,
    );
    return { ...answer, replayed: false };
  });
  if (!result.replayed) countMovement(spec.movement);
  return result;
}
