/**
 * The audit trail's hash chain, free of I/O: what a record is, its hash, and the check of a whole chain.
 *
 * hash = SHA-256 (hex) of `prev_hash` followed by the record's canonical JSON (RFC 8785, the `canonicalize`
 * package) over every field of AuditFields: its sequence, phase, time, actor, request and outcome. The first
 * record's `prev_hash` is GENESIS_HASH. A record edited, removed, or moved to another sequence no longer
 * hashes to what the next record links to, and a removed tail leaves the chain short of the stored head.
 */
import { createHash } from "node:crypto";
import canonicalizeModule from "canonicalize";

/**
 * RFC 8785 canonical JSON of `value` (undefined for a value JSON cannot hold). The package is CommonJS
 * (`module.exports = serialize`) typed as an ES default export: its default import is the function itself.
 */
export const canonicalJson = canonicalizeModule as unknown as (value: unknown) => string | undefined;

export const GENESIS_HASH = "0".repeat(64);

export type AuditPhase = "started" | "finished";

/** What one audit record says; every field is covered by its hash. */
export interface AuditFields {
  readonly sequence: number;
  /** `started`: before the handler ran; `finished`: the answer, naming its `started` record if any. */
  readonly phase: AuditPhase;
  readonly startedSequence: number | null;
  /** ISO 8601 with milliseconds. */
  readonly at: string;
  readonly actorId: string | null;
  readonly actorName: string | null;
  readonly actorKind: string | null;
  readonly actorRole: string | null;
  /** The user name a caller without an actor tried to sign in as, if it gave one. */
  readonly attemptedUser: string | null;
  readonly sourceAddress: string;
  readonly userAgent: string | null;
  readonly requestId: string;
  readonly method: string;
  /** The matched route's template (`/admin/partners/:partner_id`), never the URL. */
  readonly route: string;
  /** The path parameters. */
  readonly targetIds: Readonly<Record<string, string>>;
  /** The JSON body with secrets redacted (audit-redaction.ts), as canonical JSON text; null without one. */
  readonly body: string | null;
  readonly status: number | null;
  readonly errorCode: string | null;
}

export interface AuditRecord extends AuditFields {
  readonly prevHash: string;
  readonly hash: string;
}

/** The text hashed for a record: its fields in canonical JSON, snake_case as stored. */
export function canonicalRecord(fields: AuditFields): string {
  const text = canonicalJson({
    sequence: fields.sequence,
    phase: fields.phase,
    started_sequence: fields.startedSequence,
    at: fields.at,
    actor_id: fields.actorId,
    actor_name: fields.actorName,
    actor_kind: fields.actorKind,
    actor_role: fields.actorRole,
    attempted_user: fields.attemptedUser,
    source_address: fields.sourceAddress,
    user_agent: fields.userAgent,
    request_id: fields.requestId,
    method: fields.method,
    route: fields.route,
    target_ids: fields.targetIds,
    body: fields.body,
    status: fields.status,
    error_code: fields.errorCode,
  });
  if (text === undefined) throw new Error("an audit record has no canonical form");
  return text;
}

export function recordHash(prevHash: string, fields: AuditFields): string {
  return createHash("sha256").update(prevHash).update(canonicalRecord(fields)).digest("hex");
}

/** The next record after a head (`sequence`, `hash`). */
export function chainRecord(
  head: { readonly sequence: number; readonly hash: string },
  fields: Omit<AuditFields, "sequence">,
): AuditRecord {
  const full: AuditFields = { ...fields, sequence: head.sequence + 1 };
  return { ...full, prevHash: head.hash, hash: recordHash(head.hash, full) };
}

export type ChainVerdict =
  | { readonly ok: true; readonly verifiedThrough: number; readonly headSequence: number }
  | {
      readonly ok: false;
      /** The last sequence whose record and every one before it check out (0: none). */
      readonly verifiedThrough: number;
      /** The first sequence that does not. */
      readonly brokenAt: number;
      readonly problem: string;
      readonly headSequence: number;
    };

/**
 * Walks records in sequence order and checks that they are 1, 2, 3… without a gap, that each links to the
 * previous one's hash, that each hashes to its stored hash, and that the chain reaches the stored head.
 * The first failure is the verdict.
 */
export class ChainVerifier {
  private expected = 1;
  private prevHash = GENESIS_HASH;
  private broken: Extract<ChainVerdict, { ok: false }> | undefined;

  constructor(private readonly head: { readonly sequence: number; readonly hash: string }) {}

  /** Takes the next record; false once the chain is broken (later records need not be read). */
  add(record: AuditRecord): boolean {
    if (this.broken) return false;
    const at = this.expected;
    if (record.sequence !== at) {
      return this.fail(
        at,
        record.sequence > at ? `record ${at} is missing` : `record ${record.sequence} repeats`,
      );
    }
    if (record.prevHash !== this.prevHash) {
      return this.fail(at, `record ${at} does not link to the hash of record ${at - 1}`);
    }
    if (recordHash(record.prevHash, record) !== record.hash) {
      return this.fail(at, `record ${at} does not match its hash: it was changed after it was written`);
    }
    this.expected += 1;
    this.prevHash = record.hash;
    return true;
  }

  verdict(): ChainVerdict {
    if (this.broken) return this.broken;
    const last = this.expected - 1;
    const headSequence = this.head.sequence;
    if (last < headSequence) {
      return this.failed(this.expected, `records from ${this.expected} to ${headSequence} are missing`);
    }
    if (last > headSequence) {
      return this.failed(headSequence + 1, `record ${headSequence + 1} is past the chain head`);
    }
    if (this.prevHash !== this.head.hash) {
      return this.failed(last, `record ${last} does not match the chain head's hash`);
    }
    return { ok: true, verifiedThrough: last, headSequence };
  }

  private fail(at: number, problem: string): false {
    this.broken = this.failed(at, problem);
    return false;
  }

  private failed(at: number, problem: string): Extract<ChainVerdict, { ok: false }> {
    return {
      ok: false,
      verifiedThrough: at - 1,
      brokenAt: at,
      problem,
      headSequence: this.head.sequence,
    };
  }
}
