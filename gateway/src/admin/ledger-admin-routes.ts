/**
 * Operators' ledger routes: credit (idempotently, by X-Idempotency-Key) and read a partner's balance,
 * refund a successful payout, fail a payout stuck before the rail, and (sandbox rail only) force a
 * payout's outcome. Amounts are answered as strings at full precision; a credit is a whole number of cents
 * (INVALID_AMOUNT otherwise). A credit above the four-eyes threshold, a refund and a forced failure are
 * not carried out here but stored as approval requests (202) for a second operator (approval-admin-routes.ts).
 */

import { newId } from "@payouts/platform/ids";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import { statusWireName } from "@payouts/platform/transaction-status";
import type { Transaction } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type { FastifyInstance, FastifyReply } from "fastify";
import { addRoute } from "../api/operation.js";
import { type ApprovalAction, approvalNeeded, type FourEyesPolicy } from "../approvals/four-eyes-rules.js";
import type { GatewayConfig } from "../gateway-config.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readIdempotencyKey } from "../http/idempotency-key-header.js";
import { readBody } from "../http/read-body.js";
import { replyJson } from "../http/reply-json.js";
import { requestFingerprint } from "../http/request-fingerprint.js";
import { answered } from "../http/service-answer.js";
import {
  type AdminTransaction,
  creditBalance,
  failTransaction,
  getBalance,
  type PartnerBalance,
  refundTransaction,
  type SettleResult,
  settleSandboxPayout,
} from "../operations/admin/ledger-admin-api.js";
import { type ApprovalRecord, findApprovalByKey, insertApproval } from "../store/approval-store.js";
import { findPartner } from "../store/partner-store.js";
import { type AdminActor, actorOf } from "./admin-actor.js";
import { renderApproval } from "./approval-render.js";

const CREDIT_ROUTE = "POST /admin/partners/{partner_id}/balance/credits";

/**
 * The fingerprint of a balance credit: what it credits — the exact amount (from the JSON text, never a
 * double: two amounts one double apart are two requests), the reference — and the credited partner
 * (operator keys span partners).
 */
export function creditFingerprint(
  partnerId: string,
  credit: { readonly amountUsd: string; readonly reference: string },
): string {
  const fields = { amount_usd: new Dec(credit.amountUsd).toFixed(), reference: credit.reference };
  return requestFingerprint(CREDIT_ROUTE, fields, { partner_id: partnerId });
}

export function registerLedgerAdminRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledger, rail } = deps.clients;

  // The contract of executePayout: the same key and body replay the first answer byte for byte with
  // Idempotent-Replayed; another body is IDEMPOTENCY_KEY_REUSED; a key in flight is IDEMPOTENCY_KEY_IN_USE.
  addRoute(app, creditBalance, async (request, reply) => {
    const idempotencyKey = readIdempotencyKey(request, "credit");
    const { amount_usd: amountUsd, reference } = readBody(creditBalance.body, request.body);
    const partnerId = await requirePartner(deps, request.params.partner_id);
    const requestFingerprint = creditFingerprint(partnerId, { amountUsd, reference });
    const actor = actorOf(request);
    // A key an approval request holds stays that request's, whatever the threshold says now.
    const held = await findApprovalByKey(deps.db, "BALANCE_CREDIT", idempotencyKey);
    if (held) return replyApprovalReplay(reply, held, actor, requestFingerprint);
    if (approvalNeeded(fourEyesPolicyOf(deps.config), { kind: "credit", amountUsd })) {
      const { created, approval } = await insertApproval(deps.db, {
        ...newApproval(deps.config, "BALANCE_CREDIT", actor),
        partnerId,
        amountUsd: new Dec(amountUsd).toFixed(),
        requestBody: { amount_usd: amountUsd, reference },
        idempotencyKey,
        requestFingerprint,
      });
      if (!created) return replyApprovalReplay(reply, approval, actor, requestFingerprint);
      return replyJson(reply, 202, renderApproval(approval, actor));
    }
    const res = await ledger.creditBalance({
      partnerId,
      amountUsd,
      reference,
      idempotencyKey,
      requestFingerprint,
      requestId: request.id,
    });
    if (res.replayed) reply.header("Idempotent-Replayed", "true");
    const credited: PartnerBalance = { partner_id: partnerId, balance_usd: res.balanceUsd };
    return replyJson(reply, 201, credited);
  });

  addRoute(app, getBalance, async (request): Promise<PartnerBalance> => {
    const partnerId = await requirePartner(deps, request.params.partner_id);
    const res = await ledger.getBalance({ partnerId });
    return { partner_id: partnerId, balance_usd: res.balanceUsd };
  });

  addRoute(app, refundTransaction, async (request, reply) => {
    const { reason = "" } = readBody(refundTransaction.body, request.body);
    if (approvalNeeded(fourEyesPolicyOf(deps.config), { kind: "refund" })) {
      return requestApproval(deps, request.params.tx_id, "REFUND", actorOf(request), { reason }, reply);
    }
    const res = await ledger.refundTransaction({ txId: request.params.tx_id, reason });
    return renderAdminTransaction(answered(res.transaction, "ledger", "transaction"));
  });

  // PROCESSING → FAILED with the reversal of the debit, once the rail confirms it will not pay the payout
  // (409 PAYOUT_ACCEPTED_BY_RAIL when it has it, 503 when it does not answer). `force` skips the question:
  // only when the provider confirmed out of band that it will not pay.
  addRoute(app, failTransaction, async (request, reply) => {
    const { reason, force = false } = readBody(failTransaction.body, request.body);
    if (approvalNeeded(fourEyesPolicyOf(deps.config), { kind: "fail", force })) {
      const body = { reason, force };
      return requestApproval(deps, request.params.tx_id, "FORCE_FAIL", actorOf(request), body, reply);
    }
    const res = await ledger.failTransaction({ txId: request.params.tx_id, reason, force });
    return renderAdminTransaction(answered(res.transaction, "ledger", "transaction"));
  });

  addRoute(app, settleSandboxPayout, async (request): Promise<SettleResult> => {
    const { outcome, reason = "" } = readBody(settleSandboxPayout.body, request.body);
    const txId = request.params.tx_id;
    const res = await rail.settlePayout({ txId, outcome, reason });
    const { transaction } = await ledger.getTransaction({ txId });
    return {
      tx_id: txId,
      outcome,
      delivered: res.delivered,
      status: transaction ? (statusWireName(transaction.status) as AdminTransaction["status"]) : null,
    };
  });
}

/** The four-eyes settings of this gateway. */
export const fourEyesPolicyOf = (config: GatewayConfig): FourEyesPolicy => ({
  enabled: config.fourEyesApprovals,
  creditThresholdUsd: config.fourEyesCreditThresholdUsd,
  ttlMs: config.approvalTtlMs,
});

const newApproval = (config: GatewayConfig, action: ApprovalAction, actor: AdminActor) => ({
  approvalId: newId("apr"),
  action,
  partnerId: null,
  txId: null,
  amountUsd: null,
  idempotencyKey: null,
  requestFingerprint: null,
  requestedBy: actor,
  ttlMs: fourEyesPolicyOf(config).ttlMs,
});

/**
 * The same key and body from the same caller: that caller's approval request again (202, replayed). The
 * key with another body, or another caller's key: IDEMPOTENCY_KEY_REUSED, as for a credit carried out.
 */
function replyApprovalReplay(
  reply: FastifyReply,
  approval: ApprovalRecord,
  actor: AdminActor,
  requestFingerprint: string,
): FastifyReply {
  if (approval.requestedBy.id !== actor.id || approval.requestFingerprint !== requestFingerprint) {
    throw new ApiError(
      422,
      "IDEMPOTENCY_KEY_REUSED",
      "this X-Idempotency-Key was already used with another request; send a fresh key per credit",
    );
  }
  reply.header("Idempotent-Replayed", "true");
  return replyJson(reply, 202, renderApproval(approval, actor));
}

/** A refund or forced failure of an existing transaction, stored for a second operator (202). */
async function requestApproval(
  deps: GatewayDeps,
  txId: string,
  action: "REFUND" | "FORCE_FAIL",
  actor: AdminActor,
  requestBody: Record<string, unknown>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { transaction } = await deps.clients.ledger.getTransaction({ txId });
  if (!transaction) throw new ApiError(404, "TRANSACTION_NOT_FOUND", `transaction ${txId} not found`);
  const total = transaction.quote?.totalUsd;
  const { approval } = await insertApproval(deps.db, {
    ...newApproval(deps.config, action, actor),
    partnerId: transaction.partnerId,
    txId,
    amountUsd: total ? toDecimalString(new Dec(total)) : null,
    requestBody,
  });
  return replyJson(reply, 202, renderApproval(approval, actor));
}

async function requirePartner(deps: GatewayDeps, partnerId: string): Promise<string> {
  if (!(await findPartner(deps.db, partnerId))) {
    throw new ApiError(404, "PARTNER_NOT_FOUND", `partner ${partnerId} not found`);
  }
  return partnerId;
}

export function renderAdminTransaction(tx: Transaction): AdminTransaction {
  const q = tx.quote;
  return {
    tx_id: tx.txId,
    partner_id: tx.partnerId,
    status: statusWireName(tx.status) as AdminTransaction["status"],
    amount: tx.amount,
    currency: tx.currency,
    amount_usd: q?.amountUsd ?? null,
    fee: q?.fee ?? null,
    total_usd: q ? toDecimalString(new Dec(q.totalUsd)) : null,
    refund_reason: tx.refundReason,
    failure_reason: tx.failureReason,
    provider_reference: tx.providerReference,
    updated_at: timestampIso(tx.updatedAt),
  };
}
