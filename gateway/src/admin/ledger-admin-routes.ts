/**
 * Operators' ledger routes: credit (idempotently, by X-Idempotency-Key) and read a partner's balance,
 * refund a successful payout, fail a payout stuck before the rail, and (sandbox rail only) force a
 * payout's outcome. Amounts are answered as strings at full precision; a credit is a whole number of cents
 * (INVALID_AMOUNT otherwise).
 */
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { Transaction } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readIdempotencyKey } from "../http/idempotency-key-header.js";
import { readBody } from "../http/read-body.js";
import { transactionStatusName } from "../http/render-transaction.js";
import { replyJson } from "../http/reply-json.js";
import { requestFingerprint } from "../http/request-fingerprint.js";
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
import { findPartner } from "../store/partner-store.js";

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
    const res = await ledger.creditBalance({
      partnerId,
      amountUsd,
      reference,
      idempotencyKey,
      requestFingerprint: creditFingerprint(partnerId, { amountUsd, reference }),
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

  addRoute(app, refundTransaction, async (request) => {
    const { reason = "" } = readBody(refundTransaction.body, request.body);
    const res = await ledger.refundTransaction({ txId: request.params.tx_id, reason });
    if (!res.transaction) throw new Error("ledger answered no transaction");
    return renderAdminTransaction(res.transaction);
  });

  // PROCESSING → FAILED with the reversal of the debit, once the rail confirms it will not pay the payout
  // (409 PAYOUT_ACCEPTED_BY_RAIL when it has it, 503 when it does not answer). `force` skips the question:
  // only when the provider confirmed out of band that it will not pay.
  addRoute(app, failTransaction, async (request) => {
    const { reason, force = false } = readBody(failTransaction.body, request.body);
    const res = await ledger.failTransaction({ txId: request.params.tx_id, reason, force });
    if (!res.transaction) throw new Error("ledger answered no transaction");
    return renderAdminTransaction(res.transaction);
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
      status: transaction ? (transactionStatusName(transaction.status) as AdminTransaction["status"]) : null,
    };
  });
}

async function requirePartner(deps: GatewayDeps, partnerId: string): Promise<string> {
  if (!(await findPartner(deps.db, partnerId))) {
    throw new ApiError(404, "PARTNER_NOT_FOUND", `partner ${partnerId} not found`);
  }
  return partnerId;
}

function renderAdminTransaction(tx: Transaction): AdminTransaction {
  const q = tx.quote;
  return {
    tx_id: tx.txId,
    partner_id: tx.partnerId,
    status: transactionStatusName(tx.status) as AdminTransaction["status"],
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
