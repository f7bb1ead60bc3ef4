/**
 * The audit trail's routes: the list, its CSV export and the chain check. Recording happens elsewhere, in
 * the listener's hooks (audit/audit-trail.ts), for every route alike.
 */
import { Readable } from "node:stream";
import { keysetPage } from "@payouts/platform/database/keyset-page";
import { stringify } from "csv-stringify";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { AuditRecord } from "../audit/audit-chain.js";
import { outcomeOf } from "../audit/audit-outcome.js";
import {
  type AuditFilter,
  allAuditRecords,
  searchAuditRecords,
  verifyAuditChain,
} from "../audit/audit-store.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { invalidField } from "../http/api-error.js";
import { NO_QUERY, readQuery } from "../http/read-query.js";
import {
  type AuditRecordShape,
  exportAudit,
  searchAudit,
  verifyAudit,
} from "../operations/admin/audit-api.js";

export function registerAuditAdminRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  addRoute(app, searchAudit, async (request) => {
    const q = readQuery(searchAudit.query, request.query);
    const limit = q.limit ?? 50;
    const before = q.cursor === undefined ? undefined : sequenceOfCursor(q.cursor);
    const records = await searchAuditRecords(deps.db, filterOf(q), limit + 1, before);
    const { page, nextCursor } = keysetPage(records, limit, (last) => cursorOf(last.sequence));
    return { records: page.map(renderAuditRecord), next_cursor: nextCursor || null };
  });

  addRoute(app, exportAudit, async (request, reply) => {
    const q = readQuery(exportAudit.query, request.query);
    const csv = stringify({ header: true, columns: [...CSV_COLUMNS], record_delimiter: "windows" });
    const rows = Readable.from(csvRows(allAuditRecords(deps.db, filterOf(q))));
    rows.on("error", (error) => csv.destroy(error));
    rows.pipe(csv);
    return reply
      .code(200)
      .type("text/csv; charset=utf-8; header=present")
      .header("Content-Disposition", 'attachment; filename="audit.csv"')
      .send(csv);
  });

  addRoute(app, verifyAudit, async (request) => {
    readQuery(NO_QUERY, request.query);
    const verdict = await verifyAuditChain(deps.db);
    return {
      ok: verdict.ok,
      verified_through: verdict.verifiedThrough,
      broken_at: verdict.ok ? null : verdict.brokenAt,
      problem: verdict.ok ? null : verdict.problem,
      head_sequence: verdict.headSequence,
      checked_at: new Date().toISOString(),
    };
  });
}

function filterOf(q: {
  actor?: string;
  route?: string;
  target_id?: string;
  outcome?: AuditFilter["outcome"];
  from?: string;
  to?: string;
}): AuditFilter {
  return {
    ...(q.actor === undefined ? {} : { actor: q.actor }),
    ...(q.route === undefined ? {} : { route: q.route }),
    ...(q.target_id === undefined ? {} : { target: q.target_id }),
    ...(q.outcome === undefined ? {} : { outcome: q.outcome }),
    ...(q.from === undefined ? {} : { from: q.from }),
    ...(q.to === undefined ? {} : { to: q.to }),
  };
}

export function renderAuditRecord(record: AuditRecord): AuditRecordShape {
  return {
    sequence: record.sequence,
    phase: record.phase,
    started_sequence: record.startedSequence,
    at: record.at,
    actor:
      record.actorId === null
        ? null
        : {
            id: record.actorId,
            name: record.actorName ?? "",
            kind: record.actorKind === "operator" ? "operator" : "machine",
            role: record.actorRole ?? "",
          },
    attempted_user: record.attemptedUser,
    source_address: record.sourceAddress,
    user_agent: record.userAgent,
    request_id: record.requestId,
    method: record.method,
    route: record.route,
    target_ids: { ...record.targetIds },
    body: record.body,
    status: record.status,
    error_code: record.errorCode,
    outcome: outcomeOf(record.status),
    prev_hash: record.prevHash,
    hash: record.hash,
  };
}

const CSV_COLUMNS = [
  "sequence",
  "at",
  "actor_id",
  "actor_name",
  "actor_kind",
  "actor_role",
  "attempted_user",
  "source_address",
  "user_agent",
  "request_id",
  "method",
  "route",
  "target_ids",
  "body",
  "status",
  "error_code",
  "outcome",
  "hash",
] as const;

async function* csvRows(records: AsyncIterable<AuditRecord>): AsyncGenerator<Record<string, unknown>> {
  for await (const r of records) {
    yield {
      sequence: String(r.sequence),
      at: r.at,
      actor_id: r.actorId,
      actor_name: r.actorName,
      actor_kind: r.actorKind,
      actor_role: r.actorRole,
      attempted_user: r.attemptedUser,
      source_address: r.sourceAddress,
      user_agent: r.userAgent,
      request_id: r.requestId,
      method: r.method,
      route: r.route,
      target_ids: JSON.stringify(r.targetIds),
      body: r.body,
      status: r.status === null ? null : String(r.status),
      error_code: r.errorCode,
      outcome: outcomeOf(r.status),
      hash: r.hash,
    };
  }
}

const cursorOf = (sequence: number) => Buffer.from(`audit:${sequence}`).toString("base64url");

function sequenceOfCursor(cursor: string): number {
  const match = /^audit:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, "base64url").toString("utf8"));
  if (!match?.[1]) throw invalidField("cursor", "is not one this list returned");
  return Number(match[1]);
}
