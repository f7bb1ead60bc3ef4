/**
 * Carrying out an approved request: the ledger call the direct route would have made, with the stored body
 * (and, for a credit, the stored idempotency key and fingerprint), then its answer recorded as the outcome.
 *
 * Crash safety: the request is EXECUTING from the winning approval until the outcome is recorded. If the
 * process stops in between, the request stays EXECUTING and is carried out again (`redriveStaleApprovals`,
 * or a read of it): a credit replays at the ledger under the same key, so it is credited once; a refund or
 * forced failure that already happened is refused by the ledger, and the transaction then shows it done.
 */
import { ConnectError } from "@connectrpc/connect";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import { TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { needsRedrive } from "../approvals/four-eyes-rules.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { httpStatusFor } from "../http/error-map.js";
import { answered } from "../http/service-answer.js";
import type { ApprovalOutcome } from "../operations/admin/approval-admin-api.js";
import {
  type ApprovalRecord,
  expireOverdueApprovals,
  findApproval,
  listStaleExecutions,
  recordApprovalOutcome,
} from "../store/approval-store.js";
import { renderAdminTransaction } from "./ledger-admin-routes.js";

/** An EXECUTING request untouched this long after its approval is taken for interrupted and re-driven. */
export const STALE_EXECUTION_MS = 30_000;

/**
 * Carries `approval` (EXECUTING) out and records the outcome; answers the request as stored afterwards.
 * A refusal by the ledger is an outcome; a ledger that does not answer (or a credit key still in flight)
 * throws and leaves the request EXECUTING, to be carried out again.
 */
export async function executeApproval(
  deps: GatewayDeps,
  approval: ApprovalRecord,
  requestId: string,
): Promise<ApprovalRecord> {
  const outcome = await outcomeOf(deps, approval, requestId);
  const recorded = await recordApprovalOutcome(deps.db, approval.approvalId, outcome);
  // Another attempt recorded first: its outcome is the request's.
  return recorded ?? (await findApproval(deps.db, approval.approvalId)) ?? approval;
}

async function outcomeOf(
  deps: GatewayDeps,
  approval: ApprovalRecord,
  requestId: string,
): Promise<ApprovalOutcome> {
  try {
    return await carryOut(deps, approval, requestId);
  } catch (error) {
    const refusal = ledgerRefusal(error);
    if (!refusal) throw error;
    return (await alreadyDone(deps, approval, refusal.code)) ?? refusal;
  }
}

async function carryOut(
  deps: GatewayDeps,
  approval: ApprovalRecord,
  requestId: string,
): Promise<ApprovalOutcome> {
  const { ledger } = deps.clients;
  const body = approval.requestBody;
  switch (approval.action) {
    case "BALANCE_CREDIT": {
      const partnerId = approval.partnerId ?? "";
      const res = await ledger.creditBalance({
        partnerId,
        amountUsd: String(body.amount_usd),
        reference: String(body.reference),
        idempotencyKey: approval.idempotencyKey ?? "",
        requestFingerprint: approval.requestFingerprint ?? "",
        requestId,
      });
      return succeeded(201, { partner_id: partnerId, balance_usd: res.balanceUsd });
    }
    case "REFUND": {
      const res = await ledger.refundTransaction({
        txId: approval.txId ?? "",
        reason: typeof body.reason === "string" ? body.reason : "",
      });
      return succeeded(200, renderAdminTransaction(answered(res.transaction, "ledger", "transaction")));
    }
    case "FORCE_FAIL": {
      const res = await ledger.failTransaction({
        txId: approval.txId ?? "",
        reason: String(body.reason),
        force: true,
      });
      return succeeded(200, renderAdminTransaction(answered(res.transaction, "ledger", "transaction")));
    }
  }
}

const succeeded = (httpStatus: number, result: Record<string, unknown>): ApprovalOutcome => ({
  succeeded: true,
  http_status: httpStatus,
  result,
  code: null,
  message: null,
});

/** Reasons that mean "not now" rather than "no": the request stays EXECUTING and is carried out again. */
const RETRYABLE_REASONS: ReadonlySet<string> = new Set(["IDEMPOTENCY_KEY_IN_USE", "SERVICE_UNAVAILABLE"]);

/** The ledger's documented refusal as an outcome; undefined for anything else (rethrown). */
function ledgerRefusal(error: unknown): ApprovalOutcome | undefined {
  if (!(error instanceof ConnectError)) return undefined;
  const detail = errorDetailOf(error);
  if (!detail || RETRYABLE_REASONS.has(detail.reason)) return undefined;
  const status = httpStatusFor(detail.reason, error.code);
  if (status >= 500) return undefined;
  return {
    succeeded: false,
    http_status: status,
    result: null,
    code: detail.reason,
    message: error.rawMessage,
  };
}

/** The state a refund or forced failure leaves the transaction in. */
const DONE_STATUS = {
  REFUND: { refused: "TRANSACTION_NOT_REFUNDABLE", status: TransactionStatus.REFUNDED },
  FORCE_FAIL: { refused: "TRANSACTION_NOT_PROCESSING", status: TransactionStatus.FAILED },
} as const;

/**
 * When the ledger refuses a refund or failure because the transaction is already in the state the action
 * leads to — this request's earlier, interrupted attempt, or someone else's — the outcome is that state.
 */
async function alreadyDone(
  deps: GatewayDeps,
  approval: ApprovalRecord,
  code: string | null,
): Promise<ApprovalOutcome | undefined> {
  if (approval.action === "BALANCE_CREDIT" || approval.txId === null) return undefined;
  const done = DONE_STATUS[approval.action];
  if (code !== done.refused) return undefined;
  const { transaction } = await deps.clients.ledger.getTransaction({ txId: approval.txId });
  if (transaction?.status !== done.status) return undefined;
  return succeeded(200, renderAdminTransaction(transaction));
}

/**
 * One sweep: PENDING requests past their deadline become EXPIRED, and approved requests left EXECUTING are
 * carried out again. Errors are logged; the next sweep tries again.
 */
export async function redriveStaleApprovals(deps: GatewayDeps): Promise<void> {
  await expireOverdueApprovals(deps.db);
  for (const approval of await listStaleExecutions(deps.db, STALE_EXECUTION_MS, 20)) {
    if (!needsRedrive(approval, new Date(), STALE_EXECUTION_MS)) continue;
    try {
      await executeApproval(deps, approval, `redrive-${approval.approvalId}`);
    } catch (error) {
      deps.logger.warn({ err: error, approval_id: approval.approvalId }, "approval re-drive failed");
    }
  }
}
