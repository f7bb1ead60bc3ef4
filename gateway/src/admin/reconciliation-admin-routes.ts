/**
 * Operators' reconciliation routes (the ledger's ReconciliationService) and the sandbox rail's discrepancy
 * control (RailService/InjectSettlementDiscrepancy, which the rail refuses in production mode). Bodies and
 * query parameters are the services' request fields in snake_case; one left out is the field's zero value
 * (for a list, "no filter").
 */
import { camelCaseKeys } from "@payouts/platform/database/camel-case-keys";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type {
  ReconciliationBreak as BreakMessage,
  ReconciliationRun as RunMessage,
} from "@payouts/proto/payouts/ledger/v1/reconciliation_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { readBody } from "../http/read-body.js";
import { NO_QUERY, readQuery, readQueryRequest } from "../http/read-query.js";
import { replyJson } from "../http/reply-json.js";
import { answered } from "../http/service-answer.js";
import { wireFields } from "../http/wire-fields.js";
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
      startedBy: "admin-api",
      ...camelCaseKeys(body),
    });
    return renderRun(answered(res.run, "ledger", "run"));
  });

  addRoute(app, listReconciliationRuns, async (request) => {
    const res = await reconciliation.listReconciliationRuns(
      readQueryRequest(listReconciliationRuns.query, request.query),
    );
    return { runs: res.runs.map(renderRun), next_cursor: res.nextCursor || null };
  });

  addRoute(app, listReconciliationBreaks, async (request) => {
    const res = await reconciliation.listReconciliationBreaks(
      readQueryRequest(listReconciliationBreaks.query, request.query),
    );
    return { breaks: res.breaks.map(renderBreak), next_cursor: res.nextCursor || null };
  });

  addRoute(app, resolveReconciliationBreak, async (request) => {
    readQuery(NO_QUERY, request.query);
    const body = readBody(resolveReconciliationBreak.body, request.body);
    const res = await reconciliation.resolveReconciliationBreak({
      breakId: request.params.break_id,
      ...camelCaseKeys(body),
    });
    return renderBreak(answered(res.break, "ledger", "break"));
  });

  addRoute(app, injectSandboxDiscrepancy, async (request, reply) => {
    readQuery(NO_QUERY, request.query);
    const body = readBody(injectSandboxDiscrepancy.body, request.body);
    const res = await rail.injectSettlementDiscrepancy({ date: request.params.date, ...camelCaseKeys(body) });
    const planted: Discrepancy = { discrepancy_id: res.discrepancyId };
    return replyJson(reply, 201, planted);
  });
}

function renderRun(run: RunMessage): ReconciliationRun {
  return {
    ...wireFields(run),
    status: run.status as ReconciliationRun["status"],
    started_at: timestampIso(run.startedAt),
    finished_at: timestampIso(run.finishedAt),
  };
}

function renderBreak(b: BreakMessage): ReconciliationBreak {
  return {
    ...wireFields(b),
    type: b.type as ReconciliationBreak["type"],
    ledger_amount: b.ledgerAmount || null,
    rail_amount: b.railAmount || null,
    opened_at: timestampIso(b.openedAt),
    resolution: b.resolution
      ? { ...wireFields(b.resolution), resolved_at: timestampIso(b.resolution.resolvedAt) }
      : null,
  };
}
