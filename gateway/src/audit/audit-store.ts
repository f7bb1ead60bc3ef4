/**
 * The `gateway.audit_records` table: appending to the chain, searching it newest first, and reading it in
 * sequence order for verification.
 *
 * An append runs in one transaction that locks the chain-head row, so concurrent appends queue up and each
 * extends the head the one before it left: the chain cannot fork and its sequences have no gaps.
 */
import type { Database, Queryable } from "@payouts/platform/database/database";
import {
  type AuditFields,
  type AuditRecord,
  type ChainVerdict,
  ChainVerifier,
  chainRecord,
} from "./audit-chain.js";
import type { AuditOutcome } from "./audit-outcome.js";

const COLUMNS = `sequence, phase, started_sequence, at, actor_id, actor_name, actor_kind, actor_role,
  attempted_user, source_address, user_agent, request_id, method, route, target_ids, body, status, error_code,
  prev_hash, hash`;

interface Row {
  sequence: string;
  phase: "started" | "finished";
  started_sequence: string | null;
  at: Date | string;
  actor_id: string | null;
  actor_name: string | null;
  actor_kind: string | null;
  actor_role: string | null;
  attempted_user: string | null;
  source_address: string;
  user_agent: string | null;
  request_id: string;
  method: string;
  route: string;
  target_ids: Record<string, string> | string;
  body: string | null;
  status: number | null;
  error_code: string | null;
  prev_hash: string;
  hash: string;
}

function recordOf(row: Row): AuditRecord {
  return {
    sequence: Number(row.sequence),
    phase: row.phase,
    startedSequence: row.started_sequence === null ? null : Number(row.started_sequence),
    at: new Date(row.at).toISOString(),
    actorId: row.actor_id,
    actorName: row.actor_name,
    actorKind: row.actor_kind,
    actorRole: row.actor_role,
    attemptedUser: row.attempted_user,
    sourceAddress: row.source_address,
    userAgent: row.user_agent,
    requestId: row.request_id,
    method: row.method,
    route: row.route,
    targetIds: typeof row.target_ids === "string" ? JSON.parse(row.target_ids) : row.target_ids,
    body: row.body,
    status: row.status,
    errorCode: row.error_code,
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/** Appends one record after the chain's head; answers it with its sequence and hash. */
export async function appendAuditRecord(
  db: Database,
  fields: Omit<AuditFields, "sequence">,
): Promise<AuditRecord> {
  return db.transaction(async (tx) => {
    const head = await tx.query<{ sequence: string; hash: string }>(
      "SELECT sequence, hash FROM gateway.audit_chain_head FOR UPDATE",
    );
    const current = head.rows[0];
    if (!current) throw new Error("the audit chain has no head row");
    const record = chainRecord({ sequence: Number(current.sequence), hash: current.hash }, fields);
    await tx.query(
      `INSERT INTO gateway.audit_records (${COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)`,
      [
        record.sequence,
        record.phase,
        record.startedSequence,
        record.at,
        record.actorId,
        record.actorName,
        record.actorKind,
        record.actorRole,
        record.attemptedUser,
        record.sourceAddress,
        record.userAgent,
        record.requestId,
        record.method,
        record.route,
        JSON.stringify(record.targetIds),
        record.body,
        record.status,
        record.errorCode,
        record.prevHash,
        record.hash,
      ],
    );
    await tx.query("UPDATE gateway.audit_chain_head SET sequence = $1, hash = $2", [
      record.sequence,
      record.hash,
    ]);
    return record;
  });
}

export interface AuditFilter {
  /** An actor's id or name, or the user name an anonymous caller gave. */
  readonly actor?: string;
  readonly route?: string;
  /** Any path parameter's value. */
  readonly target?: string;
  readonly outcome?: AuditOutcome;
  /** Inclusive. */
  readonly from?: string;
  /** Exclusive. */
  readonly to?: string;
}

/**
 * One entry per request, newest first: its `finished` record, or its `started` record while no answer
 * has been recorded (outcome `unknown`), below `beforeSequence` when given.
 */
export async function searchAuditRecords(
  db: Queryable,
  filter: AuditFilter,
  limit: number,
  beforeSequence?: number,
): Promise<AuditRecord[]> {
  const where = [
    `(r.phase = 'finished' OR NOT EXISTS (SELECT 1 FROM gateway.audit_records f WHERE f.started_sequence = r.sequence))`,
  ];
  const params: unknown[] = [];
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.actor !== undefined) {
    const p = param(filter.actor);
    where.push(`(r.actor_id = ${p} OR r.actor_name = ${p} OR r.attempted_user = ${p})`);
  }
  if (filter.route !== undefined) where.push(`r.route = ${param(filter.route)}`);
  if (filter.target !== undefined) {
    where.push(
      `EXISTS (SELECT 1 FROM jsonb_each_text(r.target_ids) t WHERE t.value = ${param(filter.target)})`,
    );
  }
  if (filter.outcome !== undefined) where.push(OUTCOME_SQL[filter.outcome]);
  // As epoch milliseconds: any instant JavaScript reads (year 0 included) is one PostgreSQL can compare.
  const instant = (text: string) =>
    `to_timestamp(${param(new Date(text).getTime())}::double precision / 1000)`;
  if (filter.from !== undefined) where.push(`r.at >= ${instant(filter.from)}`);
  if (filter.to !== undefined) where.push(`r.at < ${instant(filter.to)}`);
  if (beforeSequence !== undefined) where.push(`r.sequence < ${param(beforeSequence)}`);
  const res = await db.query<Row>(
    `SELECT ${COLUMNS} FROM gateway.audit_records r WHERE ${where.join(" AND ")}
      ORDER BY r.sequence DESC LIMIT ${param(limit)}`,
    params,
  );
  return res.rows.map(recordOf);
}

const OUTCOME_SQL: Readonly<Record<AuditOutcome, string>> = {
  succeeded: "r.status < 400",
  refused: "r.status BETWEEN 400 AND 499",
  failed: "r.status >= 500",
  unknown: "r.status IS NULL",
};

/** Every entry `searchAuditRecords` finds, newest first, read a page at a time. */
export async function* allAuditRecords(db: Queryable, filter: AuditFilter): AsyncGenerator<AuditRecord> {
  const PAGE = 500;
  let before: number | undefined;
  for (;;) {
    const page = await searchAuditRecords(db, filter, PAGE, before);
    yield* page;
    if (page.length < PAGE) return;
    before = page[page.length - 1]?.sequence;
  }
}

/**
 * Walks the whole chain up to its stored head, a page at a time, and answers the first broken sequence
 * if any (audit-chain.ts says what is checked). Records appended while it walks are past the head it
 * read and are left to the next check.
 */
export async function verifyAuditChain(db: Queryable): Promise<ChainVerdict> {
  const PAGE = 1000;
  const head = await db.query<{ sequence: string; hash: string }>(
    "SELECT sequence, hash FROM gateway.audit_chain_head",
  );
  const current = head.rows[0];
  if (!current) throw new Error("the audit chain has no head row");
  const headSequence = Number(current.sequence);
  const verifier = new ChainVerifier({ sequence: headSequence, hash: current.hash });
  let after = 0;
  for (;;) {
    const page = await db.query<Row>(
      `SELECT ${COLUMNS} FROM gateway.audit_records WHERE sequence > $1 AND sequence <= $2
        ORDER BY sequence LIMIT $3`,
      [after, headSequence, PAGE],
    );
    for (const row of page.rows) if (!verifier.add(recordOf(row))) return verifier.verdict();
    if (page.rows.length < PAGE) return verifier.verdict();
    after = Number(page.rows[page.rows.length - 1]?.sequence);
  }
}
