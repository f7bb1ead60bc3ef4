/**
 * Operators' reconciliation routes (the ledger's ReconciliationService) and the sandbox rail's discrepancy
 * control (RailService/InjectSettlementDiscrepancy, which the rail refuses in production mode).
 */
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type {
  ReconciliationBreak as BreakMessage,
  ReconciliationRun as RunMessage,
} from "@payouts/proto/payouts/ledger/v1/reconciliation_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { readBody } from "../http/read-body.js";
import { NO_QUERY, readQuery } from "../http/read-query.js";
import { replyJson } from "../http/reply-json.js";
import {
  type Discrepancy,
  injectSandboxDiscrepancy,
  listReconciliationBreaks,
  listReconciliationRuns,
  type ReconciliationBreak,
  type ReconciliationRun,
  resolveReconciliationBreak,
  startReconciliationRun,
} from "../operations/admin/reconciliation-admin-api.js";

export function registerReconciliationAdminRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { reconciliation, rail } = deps.clients;

  addRoute(app, startReconciliationRun, async (request) => {
    readQuery(NO_QUERY, request.query);
    const body = readBody(startReconciliationRun.body, request.body);
    const res = await reconciliation.startReconciliationRun({
      rail: body.rail ?? "",
      date: body.date,
      startedBy: body.started_by ?? "admin-api",
    });
    if (!res.run) throw new Error("ledger answered no run");
    return renderRun(res.run);
  });

  addRoute(app, listReconciliationRuns, async (request) => {
    const q = readQuery(listReconciliationRuns.query, request.query);
    const res = await reconciliation.listReconciliationRuns({
      rail: q.rail ?? "",
      date: q.date ?? "",
      limit: q.limit ?? 0,
      cursor: q.cursor ?? "",
    });
    return { runs: res.runs.map(renderRun), next_cursor: res.nextCursor || null };
  });

  addRoute(app, listReconciliationBreaks, async (request) => {
    const q = readQuery(listReconciliationBreaks.query, request.query);
    const res = await reconciliation.listReconciliationBreaks({
      rail: q.rail ?? "",
      date: q.date ?? "",
      type: q.type ?? "",
      runId: q.run_id ?? "",
      state: q.state ?? "",
      limit: q.limit ?? 50,
      cursor: q.cursor ?? "",
    });
    return { breaks: res.breaks.map(renderBreak), next_cursor: res.nextCursor || null };
  });

  addRoute(app, resolveReconciliationBreak, async (request) => {
    readQuery(NO_QUERY, request.query);
    const body = readBody(resolveReconciliationBreak.body, request.body);
    const res = await reconciliation.resolveReconciliationBreak({
      breakId: request.params.break_id,
      note: body.note,
      resolvedBy: body.resolved_by,
    });
    if (!res.break) throw new Error("ledger answered no break");
    return renderBreak(res.break);
  });

  addRoute(app, injectSandboxDiscrepancy, async (request, reply) => {
    readQuery(NO_QUERY, request.query);
    const body = readBody(injectSandboxDiscrepancy.body, request.body);
    const res = await rail.injectSettlementDiscrepancy({
      date: request.params.date,
      kind: body.kind,
      txId: body.tx_id ?? "",
      amount: body.amount ?? "",
      currency: body.currency ?? "",
    });
    const planted: Discrepancy = { discrepancy_id: res.discrepancyId };
    return replyJson(reply, 201, planted);
  });
}

function renderRun(run: RunMessage): ReconciliationRun {
  return {
    run_id: run.runId,
    rail: run.rail,
    date: run.date,
    status: run.status as ReconciliationRun["status"],
    started_by: run.startedBy,
    rail_records: run.railRecords,
    ledger_payouts: run.ledgerPayouts,
    breaks_found: run.breaksFound,
    breaks_opened: run.breaksOpened,
    error: run.error,
    started_at: timestampIso(run.startedAt),
    finished_at: timestampIso(run.finishedAt),
  };
}

function renderBreak(b: BreakMessage): ReconciliationBreak {
  return {
    break_id: b.breakId,
    rail: b.rail,
    date: b.date,
    type: b.type as ReconciliationBreak["type"],
    key: b.key,
    tx_id: b.txId,
    rail_reference: b.railReference,
    ledger_amount: b.ledgerAmount || null,
    rail_amount: b.railAmount || null,
    currency: b.currency,
    ledger_status: b.ledgerStatus,
    rail_status: b.railStatus,
    detail: b.detail,
    run_id: b.runId,
    opened_at: timestampIso(b.openedAt),
    resolution: b.resolution
      ? {
          note: b.resolution.note,
          resolved_by: b.resolution.resolvedBy,
          resolved_at: timestampIso(b.resolution.resolvedAt),
        }
      : null,
  };
}
