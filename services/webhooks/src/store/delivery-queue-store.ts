/**
 * The work queue side of `webhooks.deliveries`: claiming due rows, recovering abandoned claims and
 * recording what an attempt achieved.
 *
 * A claim is a short transaction that moves rows to `delivering` with a lease and commits before any HTTP
 * is sent, so no transaction (nor, on PGlite, the single shared session) is held open across a network
 * call. `delivering` is unsettled, so a claimed row keeps blocking later events of its (config, tx).
 */
import type { Queryable } from "@payouts/platform/database/database";
import { PLANNED_PER_CALL } from "@payouts/platform/database/statement-names";
import type { CircuitEffect, CircuitSettings, CircuitTransition } from "../domain/circuit-breaker.js";

/** A claimed delivery with what is needed to send it. */
export interface ClaimedDelivery {
  readonly delivery_id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly tx_id: string;
  readonly config_id: string;
  readonly body: Uint8Array;
  /** Number of this attempt (attempts were incremented by the claim). */
  readonly attempts: number;
  readonly url: string;
  readonly secret_sealed: string | null;
  readonly previous_secret_sealed: string | null;
  readonly previous_secret_expires_at: Date | null;
  readonly basic_auth_username: string | null;
  readonly basic_auth_sealed: string | null;
  readonly partner_id: string;
  readonly traceparent: string | null;
  readonly event_occurred_at: Date | null;
  /** `test`: a test notification (one attempt, never disables the config). */
  readonly kind: "event" | "test";
}

export interface ClaimOptions {
  readonly now: Date;
  /** How long the claim holds (database clock, from the claim's statement); the hard bound of an attempt. */
  readonly leaseMs: number;
  /** The claiming process (webhooks.workers): its claims are released as soon as it stops renewing. */
  readonly workerId: string;
  readonly limit: number;
  /**
   * Most deliveries of one configuration in flight at once. Each claim counts the live claims it sees, so
   * with several dispatcher replicas claiming at the same instant a receiver can briefly get up to
   * replicas × this many (never the same row twice).
   */
  readonly perConfigLimit: number;
  /**
   * Claims of this worker whose receiver has answered but whose record is not stored yet: still
   * `delivering` (they keep holding later events of their transaction back), but no longer a request at
   * the receiver, so they do not count against its cap or the partner's turn. Other workers, who do not
   * know them, count them: the cap is never exceeded, only reached later.
   */
  readonly answered?: readonly string[];
  /**
   * Receivers whose limit this worker raised above `perConfigLimit` (receiver-limit.ts), by config id. Only
   * the raised ones travel, so the statement's size does not grow with the number of receivers.
   */
  readonly raisedLimits?: Readonly<Record<string, number>>;
  /**
   * Most of one partner's deliveries (all its configurations) in flight from this worker at once, so a
   * partner's receivers that accept and never answer cannot take every slot before their circuits open.
   * Unset: no bound beyond `limit`.
   */
  readonly perPartnerLimit?: number;
  /**
   * Plan the claim for this call instead of using the connection's prepared plan: while the queue has
   * outgrown what PostgreSQL last recorded of it (queueOutgrewItsPlans), a prepared plan may have been built
   * over a far smaller table. Planning costs more than running the claim (see CLAIM_DUE_SQL).
   */
  readonly planned?: "prepared" | "per-call";
}

/**
 * Claims due deliveries of active configurations that the ordering rules let go (ordering.ts mirrors the
 * NOT EXISTS predicate and BATCH_COMPLETED_RELEASED), at most `perConfigLimit` (or the configuration's
 * `raisedLimits` entry) in flight per configuration, and at most `perPartnerLimit` of one partner in flight
 * from this worker.
 *
 * Receiver health (circuit-breaker.ts `admission` and `probeTaken`): a paused configuration, or one whose
 * circuit is open and not yet due for a probe, is skipped before any of its rows is read, so its backlog
 * stays pending with its attempts untouched. An open circuit due for a probe (or a half-open one whose
 * probe's lease ran out) gives at most one row, and only while none of its rows is in flight; that
 * configuration turns half-open until the probe's lease would run out.
 *
 * Fair across partners: every partner's candidates are numbered in due order and the claim takes them by
 * (that number + the partner's deliveries already in flight), then due time. A partner with 50,000 due
 * rows therefore gets no more turns than one with a single row: the other partner's rows take the next
 * free slots (of any process) first, and a busy partner still uses every slot nobody else needs.
 *
 * Only live claims count as in flight: a claim whose lease ran out is stale and blocks nothing (it is
 * released at the next pass), and the claiming worker's answered ones (see `answered`) neither. Rows
 * locked by another claimer are skipped, and a row is taken only if it is still pending once locked (the
 * lock reads its latest version), so a row a concurrent claimer just took is never taken twice.
 */
export async function claimDueDeliveries(db: Queryable, options: ClaimOptions): Promise<ClaimedDelivery[]> {
  const sql = options.planned === "per-call" ? CLAIM_DUE_SQL_PLANNED_PER_CALL : CLAIM_DUE_SQL;
  const res = await db.query<ClaimedDelivery>(sql, claimParameters(options));
  return res.rows;
}

/**
 * Whether `webhooks.deliveries` is now more than twice the size (plus 32 pages, 256 kB) PostgreSQL last
 * recorded for it. Each VACUUM or ANALYZE records the size and makes every connection plan its prepared
 * statements again, and the table only shrinks through them; so while this is false, every prepared claim
 * was planned over at least half the table there is now. While it is true, one may have been planned over a
 * table of a few dozen rows, with sequential scans where the index probes should be: claim with a plan of
 * the call (`planned: "per-call"`) until autovacuum has looked at the table again. One catalog read.
 */
export async function queueOutgrewItsPlans(db: Queryable): Promise<boolean> {
  const res = await db.query<{ outgrew: boolean }>(
    `SELECT pg_relation_size(c.oid) / current_setting('block_size')::int > 2 * c.relpages + 32 AS outgrew
       FROM pg_class c WHERE c.oid = 'webhooks.deliveries'::regclass`,
  );
  return res.rows[0]?.outgrew ?? true;
}

/**
 * The batch rule (ordering.ts `batchCompletedHold`) as a predicate on the candidate row `d`: a
 * batch.completed row (its tx_id is the batch id) is released only when no delivery of an item event of that
 * batch to that partner is pending or in flight (one probe of deliveries_batch_open_idx, migration 013) and
 * the intake has consumed as many final item events as the batch event announced (the batch's
 * webhooks.batch_tallies row, a primary-key probe). Every other row passes at its first comparison.
 * `OFFSET 0` keeps each a probe per candidate row (see CLAIM_DUE_SQL).
 */
export const BATCH_COMPLETED_RELEASED = `(d.event_type <> 'batch.completed' OR (
               NOT EXISTS (SELECT 1 FROM webhooks.deliveries i
                            WHERE i.batch_id = d.tx_id AND i.partner_id = d.partner_id
                              AND i.status IN ('pending', 'delivering') OFFSET 0)
               AND NOT EXISTS (SELECT 1 FROM webhooks.batch_tallies t
                                WHERE t.batch_id = d.tx_id AND t.items_final < coalesce(t.items_expected, 0)
                               OFFSET 0)))`;

/**
 * The statement of claimDueDeliveries, exported so that its cost is measured on this very text.
 *
 * Per active configuration with due rows, its first `perConfigLimit - in flight` releasable rows in
 * due order, read from deliveries_config_due_idx (migration 014). Ranking every due row instead took
 * 8 ms at 5,000 pending rows and 400+ ms at 50,000 (now 1.5-3 ms); with thousands of active configs
 * and almost no backlog this form costs ~2 ms more (a probe per config). The partner ranking only
 * numbers those few candidates (at most perConfigLimit per configuration). The inner `LIMIT $8` bounds
 * the planner's estimate (a LIMIT computed by a subquery is assumed to keep a tenth of a configuration's
 * due rows): with a large backlog that estimate alone put the plan's cost over jit_above_cost, and
 * compiling it took 60-200 ms per claim at a million pending rows.
 *
 * What it reads must not depend on the backlog, whichever plan PostgreSQL picks
 * (test/webhooks/claim-budget.test.ts):
 * - Prepared, the claim switches to a generic plan after five calls and keeps it until VACUUM or ANALYZE
 *   next look at the table. One built while the queue held a few dozen rows reads whole tables: 327,000
 *   buffers a claim at a million pending rows, against 600. So while the table has outgrown what was
 *   recorded of it (queueOutgrewItsPlans), the dispatcher sends CLAIM_DUE_SQL_PLANNED_PER_CALL instead,
 *   planned for each call; not always, because planning it costs more than running it (in the quick
 *   webhook bench at load 18 on 2 cores: 5.1 ms of planning against 3.2 ms for a prepared claim).
 * - No check can become a join or a hashed subplan that reads every row it could match. A configuration
 *   has a row due when its earliest pending row is (a scalar subquery, `ORDER BY … LIMIT 1`: one index
 *   probe per configuration). The checks per candidate row (an unsettled earlier event of its
 *   transaction; the batch hold) are `EXISTS` with `OFFSET 0`, which PostgreSQL neither flattens nor
 *   hashes: a probe per candidate, estimated to let half the rows through, so a configuration's due rows
 *   are read in order until enough pass (a scalar subquery there is estimated to let almost none
 *   through, and the planner then sorted every due row of a configuration).
 * - The chosen rows are locked through the primary key alone, and whether each is still pending is read
 *   from the locked row. Asked for `status = 'pending'` there, the planner could read them from the partial
 *   index of pending rows instead; with statistics taken while nothing was pending it judged that index
 *   nearly empty and walked all of it per claim (170,000 buffers at a million pending rows).
 */
export const CLAIM_DUE_SQL = `WITH busy AS (
       SELECT b.partner_id, count(*) AS in_flight, count(*) FILTER (WHERE b.claimed_by = $5) AS mine
         FROM webhooks.deliveries b
        WHERE b.status = 'delivering' AND b.lease_expires_at > statement_timestamp()
          AND b.delivery_id <> ALL($6::text[])
        GROUP BY b.partner_id
     ), candidates AS (
       SELECT c.delivery_id, c.next_attempt_at, c.sequence, cfg.partner_id
         FROM webhooks.configs cfg
        CROSS JOIN LATERAL (
          SELECT d.delivery_id, d.next_attempt_at, d.sequence FROM (
          SELECT d.delivery_id, d.next_attempt_at, d.sequence
            FROM webhooks.deliveries d
           WHERE d.config_id = cfg.config_id AND d.status = 'pending' AND d.next_attempt_at <= $1
             AND NOT EXISTS (
               SELECT 1 FROM webhooks.deliveries e
                WHERE e.config_id = d.config_id AND e.tx_id = d.tx_id
                  AND e.sequence < d.sequence
                  AND e.status NOT IN ('delivered', 'dead')
               OFFSET 0)
             AND ${BATCH_COMPLETED_RELEASED}
           ORDER BY d.next_attempt_at, d.sequence
           LIMIT $8::int) d
           ORDER BY d.next_attempt_at, d.sequence
           LIMIT greatest(CASE WHEN cfg.circuit_state = 'closed'
                               THEN coalesce(($7::jsonb ->> cfg.config_id)::int, $3) ELSE 1 END
                            - (SELECT count(*) FROM webhooks.deliveries f
                                 WHERE f.config_id = cfg.config_id AND f.status = 'delivering'
                                   AND f.lease_expires_at > statement_timestamp()
                                   AND f.delivery_id <> ALL($6::text[])), 0)
        ) c
        WHERE cfg.active AND NOT cfg.paused
          AND (cfg.circuit_state = 'closed' OR cfg.circuit_retry_at <= $1)
          AND (SELECT p.next_attempt_at FROM webhooks.deliveries p
                WHERE p.config_id = cfg.config_id AND p.status = 'pending'
                ORDER BY p.next_attempt_at LIMIT 1) <= $1
     ), eligible AS (
       SELECT r.delivery_id FROM (
         SELECT c.delivery_id, c.next_attempt_at, c.sequence,
                coalesce(b.in_flight, 0) + row_number() OVER partner_turns AS turn,
                coalesce(b.mine, 0) + row_number() OVER partner_turns AS own_turn
           FROM candidates c LEFT JOIN busy b ON b.partner_id = c.partner_id
         WINDOW partner_turns AS (PARTITION BY c.partner_id ORDER BY c.next_attempt_at, c.sequence)
       ) r
        WHERE r.own_turn <= $9
        ORDER BY r.turn, r.next_attempt_at, r.sequence
        LIMIT $4
     ), locked AS (
       -- Found by primary key only; whether each is still pending is read from the locked row (below).
       SELECT d.delivery_id, d.config_id, d.status FROM eligible e
         JOIN webhooks.deliveries d ON d.delivery_id = e.delivery_id
        FOR UPDATE OF d SKIP LOCKED
     ), probing AS (
       -- Configurations are locked in config_id order here and when attempts are recorded: no deadlock.
       UPDATE webhooks.configs pc
          SET circuit_state = 'half_open', circuit_retry_at = $1 + $2 * interval '1 millisecond'
         FROM (SELECT lc.config_id FROM webhooks.configs lc
                WHERE lc.config_id IN (SELECT config_id FROM locked WHERE status = 'pending')
                  AND lc.circuit_state <> 'closed'
                ORDER BY lc.config_id FOR UPDATE) l
        WHERE pc.config_id = l.config_id AND pc.circuit_state <> 'closed'
     )
     UPDATE webhooks.deliveries d
        SET status = 'delivering', attempts = d.attempts + 1, claimed_by = $5, updated_at = $1,
            lease_expires_at = statement_timestamp() + $2 * interval '1 millisecond'
       FROM locked, webhooks.configs cfg
      WHERE d.delivery_id = locked.delivery_id AND locked.status = 'pending' AND cfg.config_id = d.config_id
     RETURNING d.delivery_id, d.event_id, d.event_type, d.tx_id, d.config_id, d.body, d.attempts,
               cfg.url, cfg.secret_sealed, cfg.previous_secret_sealed, cfg.previous_secret_expires_at,
               cfg.basic_auth_username, cfg.basic_auth_sealed,
               d.partner_id, d.traceparent, d.event_occurred_at, d.kind`;

/** The claim, never prepared: planned for its call with the table's current size (PLANNED_PER_CALL). */
export const CLAIM_DUE_SQL_PLANNED_PER_CALL = `${PLANNED_PER_CALL}\n${CLAIM_DUE_SQL}`;

/** The parameters of CLAIM_DUE_SQL, in order. */
export function claimParameters(options: ClaimOptions): unknown[] {
  return [
    options.now,
    options.leaseMs,
    options.perConfigLimit,
    options.limit,
    options.workerId,
    options.answered ?? [],
    JSON.stringify(options.raisedLimits ?? {}),
    Math.max(options.perConfigLimit, ...Object.values(options.raisedLimits ?? {})),
    options.perPartnerLimit ?? options.limit,
  ];
}

/**
 * Claims abandoned by a worker that stopped mid-attempt go back to pending, due now: those whose lease ran
 * out, and those whose process stopped renewing its `webhooks.workers` row (killed, frozen or cut off;
 * that process aborts its own attempts when it cannot renew, so the row is never sent twice at once). The
 * receiver may have seen that attempt; it deduplicates by event id.
 */
export async function releaseAbandonedClaims(db: Queryable, now: Date): Promise<number> {
  const res = await db.query(
    `UPDATE webhooks.deliveries d
        SET status = 'pending', next_attempt_at = $1, lease_expires_at = NULL, claimed_by = NULL, updated_at = $1,
            last_error = 'attempt interrupted: the worker stopped before recording an answer'
      WHERE d.status = 'delivering'
        AND (d.lease_expires_at < statement_timestamp()
             OR (d.claimed_by IS NOT NULL
                 AND NOT EXISTS (SELECT 1 FROM webhooks.workers w
                                  WHERE w.worker_id = d.claimed_by AND w.alive_until > statement_timestamp())))`,
    [now],
  );
  return res.rowCount;
}

/**
 * Gives a claim back after the worker failed between claiming and recording (the attempt's answer could
 * not be stored, or the worker hit an error): due again at `dueAt`, without waiting for the lease. Guarded
 * like recordAttempt, so a claim already released and taken again is left alone.
 */
export async function releaseClaim(
  db: Queryable,
  claim: { deliveryId: string; attempt: number },
  dueAt: Date,
  reason: string,
): Promise<boolean> {
  const res = await db.query(
    `UPDATE webhooks.deliveries
        SET status = 'pending', next_attempt_at = $3, lease_expires_at = NULL, claimed_by = NULL,
            updated_at = $3, last_error = $4
      WHERE delivery_id = $1 AND status = 'delivering' AND attempts = $2`,
    [claim.deliveryId, claim.attempt, dueAt, reason],
  );
  return res.rowCount > 0;
}

export interface AttemptRecord {
  readonly deliveryId: string;
  readonly attempt: number;
  readonly statusCode: number;
  readonly error: string | undefined;
  readonly latencyMs: number;
  readonly at: Date;
  readonly responseBody: string | undefined;
}

export type AttemptResult =
  | { readonly status: "delivered" }
  | { readonly status: "pending"; readonly nextAttemptAt: Date }
  | { readonly status: "dead" };

/** One finished attempt to store: what happened, the delivery's new state, and whether to retire the config. */
export interface RecordedAttempt {
  readonly record: AttemptRecord;
  readonly result: AttemptResult;
  /** What the attempt says about its receiver's health (circuit-breaker.ts `circuitEffect`). */
  readonly circuit: CircuitEffect;
  /** The receiver answered 410 Gone: the config is deactivated with this reason (if the record applies). */
  readonly disableConfigReason?: string | undefined;
}

/** A configuration whose circuit opened or closed through a recorded batch. */
export interface CircuitChange {
  readonly configId: string;
  readonly transition: CircuitTransition;
}

export interface RecordedBatch {
  /** The delivery ids whose guard matched (the claim was still this attempt's). */
  readonly applied: Set<string>;
  readonly circuitChanges: readonly CircuitChange[];
}

/**
 * Stores finished attempts, any number in ONE statement (and so one commit): each attempt's row, its
 * delivery's new state, and each configuration touched: its circuit moved by the batch's outcomes
 * (circuit-breaker.ts `afterAttempts`) and, for a 410, the configuration deactivated. Each delivery is
 * guarded by (delivering, attempt number): a worker whose lease expired and whose row was claimed again
 * must not overwrite the newer attempt, and such a stale attempt does not move the circuit either.
 *
 * A configuration is written only when something changes: a failure, a success that resets failures or a
 * circuit that was not closed, a 410. A healthy receiver's successes leave its row alone. The circuit is
 * computed from the row as it is when updated (not the statement's snapshot), so two processes recording
 * failures of one receiver at once both count.
 *
 * An attempt of a delivery deleted meanwhile (its configuration was deleted) is skipped rather than
 * failing the statement; times travel as ISO text so both database adapters bind the arrays alike.
 * No `*` in it, so each connection prepares it once (statement-names.ts) instead of planning it per batch.
 */
export async function recordAttempts(
  db: Queryable,
  attempts: readonly RecordedAttempt[],
  circuit: CircuitSettings,
): Promise<RecordedBatch> {
  if (attempts.length === 0) return { applied: new Set(), circuitChanges: [] };
  const column = <T>(pick: (a: RecordedAttempt) => T) => attempts.map(pick);
  const res = await db.query<{
    delivery_id: string | null;
    config_id: string | null;
    transition: string | null;
  }>(
    `WITH input AS (
       SELECT i.delivery_id, i.attempt, i.status_code, i.error, i.latency_ms, i.at, i.response_body, i.status,
              i.next_attempt_at, i.disable_reason, i.circuit
         FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::int[], $6::text[], $7::text[],
                     $8::text[], $9::text[], $10::text[], $11::text[])
         AS i(delivery_id, attempt, status_code, error, latency_ms, at, response_body, status, next_attempt_at,
              disable_reason, circuit)
     ), attempts AS (
       INSERT INTO webhooks.delivery_attempts (delivery_id, attempt, status_code, error, latency_ms, at)
       SELECT i.delivery_id, i.attempt, i.status_code, i.error, i.latency_ms, i.at::timestamptz FROM input i
        WHERE EXISTS (SELECT 1 FROM webhooks.deliveries d WHERE d.delivery_id = i.delivery_id)
       ON CONFLICT (delivery_id, attempt) DO NOTHING
     ), updated AS (
       UPDATE webhooks.deliveries d
          SET status = i.status, next_attempt_at = COALESCE(i.next_attempt_at::timestamptz, d.next_attempt_at),
              lease_expires_at = NULL, claimed_by = NULL, last_status_code = NULLIF(i.status_code, 0),
              last_error = i.error, response_body = i.response_body,
              delivered_at = CASE WHEN i.status = 'delivered' THEN i.at::timestamptz ELSE d.delivered_at END,
              updated_at = i.at::timestamptz
         FROM input i
        -- The rows are found by primary key. The guard is written so that no partial index on status can
        -- serve it: the prepared plan otherwise read every claim in flight, dead index entries included.
        WHERE d.delivery_id = ANY($1::text[]) AND d.delivery_id = i.delivery_id
          AND CASE WHEN d.status = 'delivering' THEN d.attempts = i.attempt ELSE false END
       RETURNING d.delivery_id, d.config_id, i.disable_reason, i.at::timestamptz AS at, i.circuit
     ), successes AS (
       SELECT u.config_id, max(u.at) AS last_success FROM updated u WHERE u.circuit = 'success'
        GROUP BY u.config_id
     ), outcomes AS (
       -- Per configuration: whether a success resets its circuit (the failures then add to none), the
       -- failures after the latest success, and a 410's reason.
       SELECT u.config_id, s.last_success IS NOT NULL AS reset,
              count(*) FILTER (WHERE u.circuit = 'failure' AND u.at > coalesce(s.last_success, '-infinity'))
                AS failures,
              max(u.at) FILTER (WHERE u.circuit = 'failure' AND u.at > coalesce(s.last_success, '-infinity'))
                AS last_failure,
              max(u.disable_reason) AS disable_reason, max(u.at) FILTER (WHERE u.disable_reason IS NOT NULL)
                AS disabled_at,
              (SELECT c.circuit_state FROM webhooks.configs c WHERE c.config_id = u.config_id) AS state_before
         FROM updated u LEFT JOIN successes s ON s.config_id = u.config_id
        GROUP BY u.config_id, s.last_success
     ), configs AS (
       UPDATE webhooks.configs c
          SET active = c.active AND b.disable_reason IS NULL,
              disabled_reason = CASE WHEN c.active AND b.disable_reason IS NOT NULL THEN b.disable_reason
                                     ELSE c.disabled_reason END,
              updated_at = CASE WHEN c.active AND b.disable_reason IS NOT NULL THEN b.disabled_at
                                ELSE c.updated_at END,
              circuit_failures = CASE WHEN b.reset THEN 0 ELSE c.circuit_failures END + b.failures,
              circuit_state = CASE
                WHEN b.failures > 0 AND ((NOT b.reset AND c.circuit_state <> 'closed')
                     OR CASE WHEN b.reset THEN 0 ELSE c.circuit_failures END + b.failures >= $12) THEN 'open'
                WHEN b.reset OR c.circuit_state = 'closed' THEN 'closed'
                ELSE c.circuit_state END,
              circuit_opened_at = CASE
                WHEN b.failures > 0 AND NOT b.reset AND c.circuit_state <> 'closed' THEN c.circuit_opened_at
                WHEN b.failures > 0
                     AND CASE WHEN b.reset THEN 0 ELSE c.circuit_failures END + b.failures >= $12 THEN b.last_failure
                WHEN b.reset OR c.circuit_state = 'closed' THEN NULL
                ELSE c.circuit_opened_at END,
              circuit_retry_at = CASE
                WHEN b.failures > 0 AND ((NOT b.reset AND c.circuit_state <> 'closed')
                     OR CASE WHEN b.reset THEN 0 ELSE c.circuit_failures END + b.failures >= $12)
                  THEN b.last_failure + $13 * interval '1 millisecond'
                WHEN b.reset OR c.circuit_state = 'closed' THEN NULL
                ELSE c.circuit_retry_at END
         -- Only the configurations this batch may change are locked, in config_id order (as the claim
         -- does): two statements never wait for each other's rows in a cycle.
         FROM (SELECT o.config_id, o.reset, o.failures, o.last_failure, o.disable_reason, o.disabled_at, o.state_before
                 FROM outcomes o JOIN webhooks.configs lc ON lc.config_id = o.config_id
                WHERE (lc.active AND o.disable_reason IS NOT NULL) OR o.failures > 0
                      OR (o.reset AND (lc.circuit_failures <> 0 OR lc.circuit_state <> 'closed'))
                ORDER BY o.config_id FOR UPDATE OF lc) b
        WHERE c.config_id = b.config_id
          AND ((c.active AND b.disable_reason IS NOT NULL) OR b.failures > 0
               OR (b.reset AND (c.circuit_failures <> 0 OR c.circuit_state <> 'closed')))
       RETURNING c.config_id, b.state_before, c.circuit_state
     )
     SELECT delivery_id, NULL AS config_id, NULL AS transition FROM updated
     UNION ALL
     SELECT NULL, config_id,
            CASE WHEN state_before = 'closed' THEN 'opened' ELSE 'closed' END
       FROM configs WHERE (state_before = 'closed') <> (circuit_state = 'closed')`,
    [
      column((a) => a.record.deliveryId),
      column((a) => a.record.attempt),
      column((a) => a.record.statusCode),
      column((a) => a.record.error ?? null),
      column((a) => a.record.latencyMs),
      column((a) => a.record.at.toISOString()),
      column((a) => a.record.responseBody ?? null),
      column((a) => a.result.status),
      column((a) => (a.result.status === "pending" ? a.result.nextAttemptAt.toISOString() : null)),
      column((a) => a.disableConfigReason ?? null),
      column((a) => a.circuit),
      circuit.failureThreshold,
      circuit.probeIntervalMs,
    ],
  );
  const applied = new Set<string>();
  const circuitChanges: CircuitChange[] = [];
  for (const row of res.rows) {
    if (row.delivery_id !== null) applied.add(row.delivery_id);
    else if (row.config_id !== null && (row.transition === "opened" || row.transition === "closed")) {
      circuitChanges.push({ configId: row.config_id, transition: row.transition });
    }
  }
  return { applied, circuitChanges };
}
