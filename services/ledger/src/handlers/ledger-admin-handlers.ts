/**
 * payouts.ledger.v1.LedgerAdminService: operators' reads across partners (caller gateway-admin only).
 * Bad filters are INVALID_FIELD naming the field; nothing here writes.
 */
import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Database } from "@payouts/platform/database/database";
import { Dec, toDecimalString } from "@payouts/platform/money/decimal";
import {
  BalanceEntrySchema,
  type LedgerAdminService,
  MovementSchema,
  PartnerBalanceSchema,
  PayoutWindowSchema,
} from "@payouts/proto/payouts/ledger/v1/ledger_admin_pb";
import { TransactionStatus } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { decodeEntryCursor, encodeEntryCursor } from "../domain/entry-cursor.js";
import { invalidField } from "../domain/ledger-failure.js";
import { decodeCursor, encodeCursor, pageSize, splitPage } from "../domain/list-cursor.js";
import { fromProtoStatus, toTransactionMessage } from "../proto/transaction-message.js";
import { failureRejection } from "../reasons.js";
import {
  balanceEntries,
  balancesOf,
  ledgerTotals,
  type MovementRow,
  movementsOf,
  payoutCounts,
  searchTransactions,
} from "../store/operator-store.js";
import { mapFailures } from "./ledger-handlers.js";

/** The overview's windows when none are asked for: the last hour and the last day. */
export const DEFAULT_WINDOWS = [3600, 86_400] as const;
const MAX_WINDOW_SECONDS = 31 * 86_400;
const MAX_WINDOWS = 4;
const MAX_BALANCES = 100;

const invalid = (field: string, message: string) => failureRejection(invalidField(field, message));

export function createLedgerAdminHandlers(deps: {
  readonly db: Database;
  readonly now: () => Date;
}): ServiceImpl<typeof LedgerAdminService> {
  const { db } = deps;
  return mapFailures({
    async searchTransactions(req) {
      const limit = pageSize(req.limit);
      const status = req.status === TransactionStatus.UNSPECIFIED ? undefined : fromProtoStatus(req.status);
      if (req.status !== TransactionStatus.UNSPECIFIED && !status) throw invalid("status", "is unknown");
      if (req.countryCode && !/^[A-Z]{2}$/.test(req.countryCode)) {
        throw invalid("country_code", "must be an ISO 3166 alpha-2 code");
      }
      if (req.currency && !/^[A-Z]{3}$/.test(req.currency)) {
        throw invalid("currency", "must be an ISO 4217 code");
      }
      const createdFrom = req.createdFrom ? timestampDate(req.createdFrom) : undefined;
      const createdTo = req.createdTo ? timestampDate(req.createdTo) : undefined;
      if (createdFrom && createdTo && createdFrom > createdTo) {
        throw invalid("created_from", "must not be after created_to");
      }
      const rows = await searchTransactions(db, {
        txId: req.txId || undefined,
        partnerId: req.partnerId || undefined,
        partnerTransactionId: req.partnerTransactionId || undefined,
        status,
        countryCode: req.countryCode || undefined,
        currency: req.currency || undefined,
        createdFrom,
        createdTo,
        after: req.cursor ? decodeCursor(req.cursor) : undefined,
        limit: limit + 1,
      });
      const { page, nextCursor } = splitPage(rows, limit, encodeCursor);
      return { transactions: page.map((tx) => toTransactionMessage(tx)), nextCursor };
    },

    async listTransactionMovements(req) {
      if (!req.txId) throw invalid("tx_id", "is required");
      const rows = await movementsOf(db, req.txId);
      return {
        movements: rows.map((m) =>
          create(MovementSchema, {
            ...movementFields(m),
            partnerId: m.partner_id,
            lines: m.lines.map((l) => ({ account: l.account, amountUsd: decimal(l.amount) })),
          }),
        ),
      };
    },

    async listBalanceEntries(req) {
      if (!req.partnerId) throw invalid("partner_id", "is required");
      const limit = pageSize(req.limit);
      const before = req.cursor ? decodeEntryCursor(req.cursor) : undefined;
      const { rows, balanceNow } = await balanceEntries(db, req.partnerId, before, limit + 1);
      const { page, nextCursor } = splitPage(rows, limit, (last) => encodeEntryCursor(last.entry_id));
      return {
        entries: page.map((e) =>
          create(BalanceEntrySchema, {
            ...movementFields(e),
            entryId: e.entry_id,
            amountUsd: decimal(e.amount),
            balanceAfterUsd: decimal(e.balance_after),
          }),
        ),
        nextCursor,
        balanceUsd: decimal(balanceNow),
      };
    },

    async listBalances(req) {
      if (req.partnerIds.length > MAX_BALANCES) {
        throw invalid("partner_ids", `must name at most ${MAX_BALANCES} partners`);
      }
      const found = new Map((await balancesOf(db, req.partnerIds)).map((r) => [r.partner_id, r]));
      return {
        balances: [...new Set(req.partnerIds)].map((partnerId) =>
          create(PartnerBalanceSchema, {
            partnerId,
            balanceUsd: decimal(found.get(partnerId)?.balance ?? "0"),
            inFlightUsd: decimal(found.get(partnerId)?.in_flight ?? "0"),
          }),
        ),
      };
    },

    async getLedgerOverview(req) {
      const windows = req.windowSeconds.length > 0 ? [...new Set(req.windowSeconds)] : [...DEFAULT_WINDOWS];
      if (windows.length > MAX_WINDOWS) throw invalid("window_seconds", `may name at most ${MAX_WINDOWS}`);
      for (const w of windows) {
        if (!Number.isInteger(w) || w < 1 || w > MAX_WINDOW_SECONDS) {
          throw invalid("window_seconds", `must be 1 to ${MAX_WINDOW_SECONDS} seconds each`);
        }
      }
      const now = deps.now();
      const [counts, totals] = [await payoutCounts(db, now, windows), await ledgerTotals(db)];
      return {
        asOf: timestampFromDate(now),
        windows: windows.map((w) =>
          create(PayoutWindowSchema, {
            windowSeconds: w,
            since: timestampFromDate(new Date(now.getTime() - w * 1000)),
            counts: counts
              .filter((c) => Number(c.window_seconds) === w)
              .map((c) => ({
                countryCode: c.country_code,
                currency: c.currency,
                status: c.status,
                count: BigInt(c.count),
                amount: decimal(c.amount),
                debitedUsd: decimal(c.debited_usd),
              })),
          }),
        ),
        totalBalanceUsd: decimal(totals.total_balance),
        totalInFlightUsd: decimal(totals.total_in_flight),
        partners: BigInt(totals.partners),
        outboxUnpublished: BigInt(totals.outbox_unpublished),
        outboxOldestAgeMs: BigInt(totals.outbox_oldest_age_ms),
      };
    },
  });
}

const decimal = (text: string) => toDecimalString(new Dec(text));

/** What a movement and each of its balance entries say alike: the movement, its kind, payout and time. */
function movementFields(row: Omit<MovementRow, "partner_id" | "lines">) {
  return {
    movementId: row.movement_id,
    kind: row.kind,
    txId: row.tx_id ?? "",
    reference: row.reference,
    createdAt: timestampFromDate(row.created_at),
  };
}
