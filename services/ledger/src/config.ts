import { loadConfig, parse } from "@payouts/platform/config/env-config";

const DAY_MS = 24 * 60 * 60 * 1000;

const spec = {
  pendingTtlMs: {
    env: "PENDING_TTL_MS",
    doc: "how long a PENDING transaction may wait for executePayout before it expires",
    parse: parse.positiveInt,
    default: DAY_MS,
  },
  expirySweepMs: {
    env: "LEDGER_EXPIRY_SWEEP_MS",
    doc: "interval of the sweeper that expires PENDING transactions",
    parse: parse.positiveInt,
    default: 30_000,
  },
  idempotencyKeyTtlMs: {
    env: "IDEMPOTENCY_KEY_TTL_MS",
    doc: "how long an executePayout idempotency key is remembered (at least 24 hours; balance credit keys are kept for good)",
    parse: atLeastOneDay,
    default: 30 * DAY_MS,
  },
  outboxPollMs: {
    env: "OUTBOX_POLL_MS",
    doc: "outbox relay polling interval (the relay is also woken right after local commits)",
    parse: parse.positiveInt,
    default: 200,
  },
  outboxBatchSize: {
    env: "OUTBOX_BATCH_SIZE",
    doc: "outbox rows published per round trip",
    parse: parse.positiveInt,
    default: 100,
  },
  outboxLeaseMs: {
    env: "OUTBOX_LEASE_MS",
    doc: "relay lease duration; a crashed relay is replaced after at most this long",
    parse: parse.positiveInt,
    default: 15_000,
  },
  railRetryMs: {
    env: "RAIL_RETRY_INTERVAL_MS",
    doc: "interval of the loop that resubmits payouts the rail did not acknowledge",
    parse: parse.positiveInt,
    default: 2_000,
  },
  railSubmitTimeoutMs: {
    env: "RAIL_SUBMIT_TIMEOUT_MS",
    doc: "deadline of one SubmitPayout call to the rail (executePayout answers after at most this long)",
    parse: parse.positiveInt,
    default: 5_000,
  },
  processingTimeoutMs: {
    env: "PROCESSING_TIMEOUT_MS",
    doc: "a PROCESSING payout the rail has not accepted after this long is failed with a reversal, once the rail confirms it will not pay it",
    parse: parse.positiveInt,
    default: 30 * 60_000,
  },
  statementCloseGraceMs: {
    env: "STATEMENT_CLOSE_GRACE_MS",
    doc: "a partner's day closes (its daily statement is frozen) this long after its local midnight",
    parse: parse.nonNegativeInt,
    default: 10 * 60_000,
  },
  statementCloseIntervalMs: {
    env: "STATEMENT_CLOSE_INTERVAL_MS",
    doc: "interval of the job that closes partners' due days",
    parse: parse.positiveInt,
    default: 60_000,
  },
  railName: {
    env: "RAIL_NAME",
    doc: "the name of the rail the ledger submits to, as reconciliation runs and breaks record it",
    parse: railName,
    default: "sandbox",
  },
  reconciliationIntervalMs: {
    env: "RECONCILIATION_INTERVAL_MS",
    doc: "how often the ledger checks that the previous UTC day was reconciled against the rail, and runs it if not; 0 = never (operators start runs)",
    parse: parse.nonNegativeInt,
    default: 60 * 60_000,
  },
  reconciliationReadTimeoutMs: {
    env: "RECONCILIATION_READ_TIMEOUT_MS",
    doc: "deadline of one ListSettlementRecords page read from the rail",
    parse: parse.positiveInt,
    default: 30_000,
  },
  batchWorkIntervalMs: {
    env: "BATCH_WORK_INTERVAL_MS",
    doc: "interval of the batch workers (validation, fan-out) and the batch expiry; they are also woken right after a commit that queued work",
    parse: parse.positiveInt,
    default: 1_000,
  },
  batchWorkLeaseMs: {
    env: "BATCH_WORK_LEASE_MS",
    doc: "how long a batch worker holds a claimed item; a worker that dies holding it is replaced after this long",
    parse: parse.positiveInt,
    default: 60_000,
  },
  batchCallTimeoutMs: {
    env: "BATCH_CALL_TIMEOUT_MS",
    doc: "deadline of one lookup or pricing call while validating a batch item",
    parse: parse.positiveInt,
    default: 10_000,
  },
} as const;

export type LedgerConfig = ReturnType<typeof loadLedgerConfig>;

export function loadLedgerConfig(env: Readonly<Record<string, string | undefined>>) {
  return loadConfig(spec, env);
}

function atLeastOneDay(raw: string): number {
  const n = parse.nonNegativeInt(raw);
  if (n < DAY_MS) throw new Error(`must be at least ${DAY_MS} (24 hours)`);
  return n;
}

function railName(raw: string): string {
  if (!/^[a-z][a-z0-9_-]{0,62}$/.test(raw)) throw new Error("expected a lower-case name: a-z, 0-9, _ and -");
  return raw;
}
