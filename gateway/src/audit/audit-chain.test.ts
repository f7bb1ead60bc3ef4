import { describe, expect, it } from "vitest";
import {
  type AuditFields,
  type AuditRecord,
  ChainVerifier,
  canonicalRecord,
  chainRecord,
  GENESIS_HASH,
} from "./audit-chain.js";

const fields = (n: number): Omit<AuditFields, "sequence"> => ({
  phase: "finished",
  startedSequence: null,
  at: `2026-05-01T10:00:0${n}.000Z`,
  actorId: "mc_admin_token",
  actorName: "admin-token",
  actorKind: "machine",
  actorRole: "admin",
  attemptedUser: null,
  sourceAddress: "10.0.0.1",
  userAgent: null,
  requestId: `req_${n}`,
  method: "POST",
  route: "/admin/partners",
  targetIds: {},
  body: '{"name":"x"}',
  status: 201,
  errorCode: null,
});

function chain(length: number): AuditRecord[] {
  const records: AuditRecord[] = [];
  let head = { sequence: 0, hash: GENESIS_HASH };
  for (let n = 1; n <= length; n++) {
    const record = chainRecord(head, fields(n));
    records.push(record);
    head = record;
  }
  return records;
}

function verdictOf(records: readonly AuditRecord[], head: { sequence: number; hash: string }) {
  const verifier = new ChainVerifier(head);
  for (const record of records) if (!verifier.add(record)) break;
  return verifier.verdict();
}

const headOf = (records: readonly AuditRecord[]) => {
  const last = records[records.length - 1];
  return last ? { sequence: last.sequence, hash: last.hash } : { sequence: 0, hash: GENESIS_HASH };
};

describe("the audit hash chain", () => {
  it("serialises a record as canonical JSON, keys sorted, so the hash does not depend on field order", () => {
    const text = canonicalRecord({ ...fields(1), sequence: 1, targetIds: { b: "2", a: "1" } });
    expect(text.startsWith('{"actor_id":"mc_admin_token","actor_kind":"machine"')).toBe(true);
    expect(text).toContain('"target_ids":{"a":"1","b":"2"}');
  });

  it("accepts a chain as written, and an empty one at the genesis head", () => {
    const records = chain(4);
    expect(verdictOf(records, headOf(records))).toEqual({ ok: true, verifiedThrough: 4, headSequence: 4 });
    expect(verdictOf([], headOf([]))).toEqual({ ok: true, verifiedThrough: 0, headSequence: 0 });
  });

  it("names the first broken sequence: an edit, a removal, a swap, a removed tail", () => {
    const records = chain(5);
    const head = headOf(records);
    const edited = records.map((r) => (r.sequence === 3 ? { ...r, status: 400 } : r));
    expect(verdictOf(edited, head)).toMatchObject({ ok: false, brokenAt: 3, verifiedThrough: 2 });
    const removed = records.filter((r) => r.sequence !== 2);
    expect(verdictOf(removed, head)).toMatchObject({
      ok: false,
      brokenAt: 2,
      problem: "record 2 is missing",
    });
    const [a, b, c, d, e] = records as [AuditRecord, AuditRecord, AuditRecord, AuditRecord, AuditRecord];
    const swapped = [a, { ...d, sequence: 2 }, c, { ...b, sequence: 4 }, e];
    expect(verdictOf(swapped, head)).toMatchObject({ ok: false, brokenAt: 2 });
    expect(verdictOf(records.slice(0, 3), head)).toMatchObject({
      ok: false,
      brokenAt: 4,
      verifiedThrough: 3,
    });
  });

  it("finds a record rewritten with a fresh hash by its link to the next one", () => {
    const records = chain(3);
    const forged = chainRecord(headOf(records.slice(0, 1)), { ...fields(2), status: 500 });
    const rewritten = [records[0] as AuditRecord, forged, records[2] as AuditRecord];
    expect(verdictOf(rewritten, headOf(records))).toMatchObject({ ok: false, brokenAt: 3 });
  });
});
