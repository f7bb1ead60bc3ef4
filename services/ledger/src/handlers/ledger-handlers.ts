/**
 * payouts.ledger.v1.LedgerService: proto ↔ operations, and LedgerFailure → ConnectError with its reason.
 */
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { toDecimalString } from "@payouts/platform/money/decimal";
import { isOperatorCall } from "@payouts/platform/rpc/service-auth";
import { currentTraceparent } from "@payouts/platform/telemetry/trace-context";
import { type LedgerService, TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { invalidField, LedgerFailure, missingField, notFound } from "../domain/ledger-failure.js";
import { decodeCursor, encodeCursor, pageSize, splitPage } from "../domain/list-cursor.js";
import { createTransaction } from "../operations/create-transaction.js";
import { creditBalance } from "../operations/credit-balance.js";
import { executePayout } from "../operations/execute-payout.js";
import { failProcessingPayout } from "../operations/fail-processing-payout.js";
import type { LedgerDeps } from "../operations/ledger-deps.js";
import { listDayTransactions } from "../operations/list-day-transactions.js";
import { listStatementLines } from "../operations/list-statement-lines.js";
import { quoteTransaction } from "../operations/quote-transaction.js";
import { recordRailResult } from "../operations/record-rail-result.js";
import { refundTransaction } from "../operations/refund-transaction.js";
import type { BindingPricer } from "../pricing/binding-pricer.js";
import { toDayTransactionMessage } from "../proto/day-transaction-message.js";
import { toStatementLineMessage } from "../proto/statement-line-message.js";
import { destinationToJson, fromProtoStatus, toTransactionMessage } from "../proto/transaction-message.js";
import type { PayoutRail } from "../rail/payout-rail.js";
import { failureRejection } from "../reasons.js";
import { balanceOf } from "../store/ledger-store.js";
import { findTransactionWithHistory } from "../store/locked-transaction-store.js";
import { findTransaction, listTransactions, type StoredTransaction } from "../store/transaction-store.js";

export interface LedgerHandlerHooks {
  /** The payout rail, asked before an operator fails a payout (FailTransaction). */
  readonly rail: PayoutRail | undefined;
  /** Pricing, asked for every price the ledger stores (CreateTransaction with an amount, QuoteTransaction). */
  readonly pricer: BindingPricer | undefined;
  /** After a payout was accepted (not on replays): hand it to the rail. Never throws. */
  readonly afterExecute: (executed: StoredTransaction) => Promise<void>;
}

export function createLedgerHandlers(
  deps: LedgerDeps,
  hooks: LedgerHandlerHooks,
): ServiceImpl<typeof LedgerService> {
  return mapFailures({
    async createTransaction(req, ctx) {
      if (!req.destination) throw missingField("destination");
      const tx = await createTransaction(
        deps,
        hooks.pricer,
        {
          partnerId: req.partnerId,
          customerId: req.customerId,
          countryCode: req.destination.countryCode,
          currency: req.destination.currency,
          destination: destinationToJson(req.destination),
          amount: req.amount,
          partnerTransactionId: req.partnerTransactionId,
          partnerAppId: req.partnerAppId,
          walletIdentifier: req.walletIdentifier,
          traceparent: traceparentOf(ctx),
        },
        // Pricing's call ends with this one: the caller's cancellation and what is left of its deadline.
        { signal: ctx.signal, timeoutMs: ctx.timeoutMs() },
      );
      return { transaction: toTransactionMessage(tx.tx, tx.history, req.destination) };
    },

    async getTransaction(req, ctx) {
      // Partner scope is required; only an operator caller (the admin API) reads across partners.
      if (!req.partnerId && !isOperatorCall(ctx)) throw missingField("partner_id");
      if (req.includeHistory) {
        const found = await findTransactionWithHistory(deps.db, req.txId, req.partnerId);
        if (!found) throw notFound(req.txId);
        return { transaction: toTransactionMessage(found.tx, found.history) };
      }
      const tx = await findTransaction(deps.db, req.txId, { partnerId: req.partnerId });
      if (!tx) throw notFound(req.txId);
      return { transaction: toTransactionMessage(tx) };
    },

    async listTransactions(req) {
      if (!req.partnerId) throw missingField("partner_id");
      const limit = pageSize(req.limit);
      const status = req.status === TransactionStatus.UNSPECIFIED ? undefined : fromProtoStatus(req.status);
      if (req.status !== TransactionStatus.UNSPECIFIED && !status) throw invalidField("status", "is unknown");
      const rows = await listTransactions(deps.db, {
        partnerId: req.partnerId,
        status,
        partnerTransactionId: req.partnerTransactionId || undefined,
        createdFrom: req.createdFrom ? timestampDate(req.createdFrom) : undefined,
        createdTo: req.createdTo ? timestampDate(req.createdTo) : undefined,
        after: req.cursor ? decodeCursor(req.cursor) : undefined,
        limit: limit + 1,
      });
      const { page, nextCursor } = splitPage(rows, limit, encodeCursor);
      return { transactions: page.map((tx) => toTransactionMessage(tx)), nextCursor };
    },

    async quoteTransaction(req, ctx) {
      if (!req.partnerId) throw missingField("partner_id");
      const quote = await quoteTransaction(
        deps,
        hooks.pricer,
        { partnerId: req.partnerId, txId: req.txId, currency: req.currency, amount: req.amount },
        // Pricing's call ends with this one: the caller's cancellation and what is left of its deadline.
        { signal: ctx.signal, timeoutMs: ctx.timeoutMs() },
      );
      return { quote };
    },

    async executePayout(req, ctx) {
      if (!req.partnerId) throw missingField("partner_id");
      const result = await executePayout(deps, {
        partnerId: req.partnerId,
        txId: req.txId,
        idempotencyKey: req.idempotencyKey,
        fingerprint: req.requestFingerprint,
        requestId: req.requestId,
        traceparent: traceparentOf(ctx),
      });
      if (result.executed) await hooks.afterExecute(result.executed);
      return { transaction: result.transaction, replayed: result.replayed };
    },

    async recordRailResult(req, ctx) {
      const result = await recordRailResult(deps, {
        txId: req.txId,
        outcome: req.outcome,
        reason: req.reason,
        providerReference: req.providerReference,
        traceparent: traceparentOf(ctx),
      });
      return {
        transaction: toTransactionMessage(result.transaction, result.history),
        changed: result.changed,
      };
    },

    async refundTransaction(req, ctx) {
      const refunded = await refundTransaction(deps, req.txId, req.reason, traceparentOf(ctx));
      return { transaction: toTransactionMessage(refunded.tx, refunded.history) };
    },

    async creditBalance(req) {
      return creditBalance(deps, {
        partnerId: req.partnerId,
        amountUsd: req.amountUsd,
        reference: req.reference,
        idempotencyKey: req.idempotencyKey,
        fingerprint: req.requestFingerprint,
        requestId: req.requestId,
      });
    },

    async failTransaction(req, ctx) {
      if (!req.txId) throw missingField("tx_id");
      const reason = req.reason.trim();
      if (!reason) throw missingField("reason");
      if (reason.length > 500) throw invalidField("reason", "must be at most 500 characters");
      const failed = await failProcessingPayout(deps, hooks.rail, {
        txId: req.txId,
        reason,
        force: req.force,
        traceparent: traceparentOf(ctx),
      });
      return { transaction: toTransactionMessage(failed.tx, failed.history) };
    },

    async getBalance(req) {
      if (!req.partnerId) throw missingField("partner_id");
      return { balanceUsd: toDecimalString(await balanceOf(deps.db, req.partnerId)) };
    },

    async listStatementLines(req) {
      if (!req.partnerId) throw missingField("partner_id");
      const page = await listStatementLines(deps.db, req);
      return {
        lines: page.lines.map(toStatementLineMessage),
        nextCursor: page.nextCursor ?? "",
      };
    },

    async listDayTransactions(req) {
      if (!req.partnerId) throw missingField("partner_id");
      const page = await listDayTransactions(deps.db, req, deps.now());
      return {
        date: page.period.date,
        timeZone: page.period.timeZone,
        periodStart: timestampFromDate(page.period.start),
        periodEnd: timestampFromDate(page.period.end),
        transactions: page.transactions.map(toDayTransactionMessage),
        nextCursor: page.nextCursor ?? "",
      };
    },
  });
}

/** The trace context events of this call continue: this call's server span, else the caller's. */
function traceparentOf(ctx: HandlerContext): string | undefined {
  return currentTraceparent() ?? ctx.requestHeader.get("traceparent") ?? undefined;
}

// Every method: a LedgerFailure becomes its documented ConnectError; anything else stays an internal error.
export function mapFailures<T extends object>(impl: T): T {
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(impl)) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        throw error instanceof LedgerFailure ? failureRejection(error) : error;
      }
    };
  }
  return wrapped as T;
}
