/**
 * Four-eyes approvals: the inbox, one request, approve (carried out at once by the one winning approval)
 * and reject. Who may decide is four-eyes-rules.ts's answer; this module reads, asks it and stores.
 */
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import { type DecisionRefusal, decisionRefusal, needsRedrive } from "../approvals/four-eyes-rules.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { isDependencyUnavailable } from "../http/error-map.js";
import { readBody } from "../http/read-body.js";
import { readQuery } from "../http/read-query.js";
import { replyJson } from "../http/reply-json.js";
import {
  approveApproval,
  getApproval,
  listApprovals,
  rejectApproval,
} from "../operations/admin/approval-admin-api.js";
import {
  type ApprovalRecord,
  claimApproval,
  expireOverdueApprovals,
  findApproval,
  listApprovals as listApprovalRecords,
  rejectApproval as storeRejection,
} from "../store/approval-store.js";
import { type AdminActor, actorOf } from "./admin-actor.js";
import { executeApproval, redriveStaleApprovals, STALE_EXECUTION_MS } from "./approval-execution.js";
import { renderApproval } from "./approval-render.js";

/** How often each gateway process expires overdue requests and re-drives interrupted executions. */
const SWEEP_INTERVAL_MS = 30_000;

const REFUSAL_MESSAGES: Readonly<Record<DecisionRefusal, [number, string]>> = {
  APPROVAL_ALREADY_DECIDED: [409, "the request was already decided"],
  APPROVAL_EXPIRED: [409, "the request expired undecided and has no effect; request the action again"],
  APPROVAL_BY_REQUESTER: [403, "you requested this action: another operator must approve it"],
  APPROVAL_BY_MACHINE: [403, "a machine credential may not approve; an operator must sign in and approve"],
  APPROVAL_ROLE_REQUIRED: [403, "your role may not decide this action (finance or above is needed)"],
};

const refused = (refusal: DecisionRefusal) => {
  const [status, message] = REFUSAL_MESSAGES[refusal];
  return new ApiError(status, refusal, message);
};

export function registerApprovalAdminRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  addRoute(app, listApprovals, async (request, reply) => {
    const { status, limit = 50 } = readQuery(listApprovals.query, request.query);
    await expireOverdueApprovals(deps.db);
    const records = await listApprovalRecords(deps.db, { ...(status ? { status } : {}), limit });
    const viewer = actorOf(request);
    return replyJson(reply, 200, { approvals: records.map((r) => renderApproval(r, viewer)) });
  });

  addRoute(app, getApproval, async (request, reply) => {
    let approval = await requireApproval(deps, request.params.approval_id);
    if (needsRedrive(approval, new Date(), STALE_EXECUTION_MS)) {
      approval = await executeApproval(deps, approval, request.id).catch((error: unknown) => {
        // The read still answers; the request stays EXECUTING and the next read or sweep tries again.
        if (!isDependencyUnavailable(error)) throw error;
        request.log.warn({ err: error, approval_id: approval.approvalId }, "approval re-drive postponed");
        return approval;
      });
    }
    return replyJson(reply, 200, renderApproval(approval, actorOf(request)));
  });

  addRoute(app, approveApproval, async (request, reply) => {
    const actor = actorOf(request);
    const executed = await approveRequest(deps, request.params.approval_id, actor, request.id);
    return replyJson(reply, 200, renderApproval(executed, actor));
  });

  addRoute(app, rejectApproval, async (request, reply) => {
    const { reason } = readBody(rejectApproval.body, request.body);
    const actor = actorOf(request);
    const approvalId = request.params.approval_id;
    const refusal = decisionRefusal(await requireApproval(deps, approvalId), actor, "reject", new Date());
    if (refusal) throw refused(refusal);
    const rejected = await storeRejection(deps.db, approvalId, actor, reason);
    if (!rejected) throw await lostRace(deps, approvalId);
    return replyJson(reply, 200, renderApproval(rejected, actor));
  });

  startSweeper(app, deps);
}

/**
 * `actor` approves: refused (ApiError) unless the rules allow it; of concurrent approvals exactly one claims
 * the request and carries it out, the others answer APPROVAL_ALREADY_DECIDED.
 */
export async function approveRequest(
  deps: GatewayDeps,
  approvalId: string,
  actor: AdminActor,
  requestId: string,
): Promise<ApprovalRecord> {
  const refusal = decisionRefusal(await requireApproval(deps, approvalId), actor, "approve", new Date());
  if (refusal) throw refused(refusal);
  const claimed = await claimApproval(deps.db, approvalId, actor);
  if (!claimed) throw await lostRace(deps, approvalId);
  return executeApproval(deps, claimed, requestId);
}

async function requireApproval(deps: GatewayDeps, approvalId: string): Promise<ApprovalRecord> {
  const approval = await findApproval(deps.db, approvalId);
  if (!approval) throw new ApiError(404, "APPROVAL_NOT_FOUND", `approval request ${approvalId} not found`);
  return approval;
}

/** The conditional update found the request no longer pending: it expired, or another decision won. */
async function lostRace(deps: GatewayDeps, approvalId: string): Promise<ApiError> {
  // Still PENDING means the database's clock saw it expired: the update requires `expires_at > now()`.
  const { status } = await requireApproval(deps, approvalId);
  return refused(
    status === "PENDING" || status === "EXPIRED" ? "APPROVAL_EXPIRED" : "APPROVAL_ALREADY_DECIDED",
  );
}

/** Expires overdue requests and re-drives interrupted executions while the listener is open. */
function startSweeper(app: FastifyInstance, deps: GatewayDeps): void {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= redriveStaleApprovals(deps)
      .catch((error: unknown) => deps.logger.warn({ err: error }, "approval sweep failed"))
      .finally(() => {
        running = undefined;
      });
  }, SWEEP_INTERVAL_MS);
  timer.unref();
  app.addHook("onClose", async () => {
    clearInterval(timer);
    await running;
  });
}
