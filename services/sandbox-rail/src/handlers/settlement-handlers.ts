/**
 * The settlement side of payouts.rail.v1.RailService: ListSettlementRecords (what a real rail's daily
 * settlement file holds) and, outside production mode only, InjectSettlementDiscrepancy.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Database } from "@payouts/platform/database/database";
import { newId } from "@payouts/platform/ids";
import { parseDecimal } from "@payouts/platform/money/decimal";
import { parseUtcDay } from "@payouts/platform/time/utc-day";
import { type RailService, SettlementRecordSchema } from "@payouts/proto/payouts/rail/v1/rail_pb";
import { RAIL } from "../domain/rail-reasons.js";
import { applyDiscrepancies, isDiscrepancyKind, recordOf } from "../domain/settlement-records.js";
import { reject, rejection } from "../reasons.js";
import { acceptedPayouts, discrepanciesOf, insertDiscrepancy } from "../store/settlement-store.js";

const DEFAULT_PAGE = 500;
const MAX_PAGE = 1000;

type SettlementHandlers = Pick<
  ServiceImpl<typeof RailService>,
  "listSettlementRecords" | "injectSettlementDiscrepancy"
>;

export function createSettlementHandlers(deps: {
  readonly db: Database;
  readonly now: () => Date;
  /** False in production mode: a real rail's records cannot be doctored, so neither can these. */
  readonly sandboxControls: boolean;
}): SettlementHandlers {
  const { db, now } = deps;
  const invalid = (field: string, message: string) => rejection(RAIL.error("INVALID_FIELD", message, field));
  const dayOf = (date: string) => {
    if (!date) throw reject("MISSING_REQUIRED_FIELD", "date");
    const day = parseUtcDay(date);
    if (!day) throw invalid("date", "date must be a UTC day, YYYY-MM-DD");
    return day;
  };
  return {
    // The whole day is assembled, then cut into pages by position: the sandbox holds few payouts a day, and
    // the order (acceptance time, then planted records) is stable while the day's discrepancies are.
    async listSettlementRecords(req) {
      const day = dayOf(req.date);
      if (req.limit < 0 || req.limit > MAX_PAGE) throw invalid("limit", `limit must be 0 to ${MAX_PAGE}`);
      const limit = req.limit || DEFAULT_PAGE;
      const offset = req.cursor ? Number(req.cursor) : 0;
      if (!Number.isSafeInteger(offset) || offset < 0 || !/^\d*$/.test(req.cursor)) {
        throw invalid("cursor", "cursor is not one this rail gave");
      }
      const records = applyDiscrepancies(
        (await acceptedPayouts(db, day.start, day.end)).map(recordOf),
        await discrepanciesOf(db, day.day),
      );
      const page = records.slice(offset, offset + limit);
      return {
        records: page.map((r) =>
          create(SettlementRecordSchema, {
            railReference: r.railReference,
            txId: r.txId,
            amount: r.amount,
            currency: r.currency,
            status: r.status,
            settledAt: r.settledAt ? timestampFromDate(r.settledAt) : undefined,
            acceptedAt: timestampFromDate(r.acceptedAt),
          }),
        ),
        nextCursor: offset + limit < records.length ? String(offset + limit) : "",
      };
    },

    async injectSettlementDiscrepancy(req) {
      if (!deps.sandboxControls) throw reject("SANDBOX_CONTROL_DISABLED");
      const day = dayOf(req.date);
      if (!isDiscrepancyKind(req.kind)) {
        throw invalid(
          "kind",
          "kind must be DROP_RECORD, CHANGE_AMOUNT, ADD_UNKNOWN_RECORD, DUPLICATE_RECORD or FLIP_STATUS",
        );
      }
      const discrepancyId = newId("sbd");
      const unknown = req.kind === "ADD_UNKNOWN_RECORD";
      if (!unknown && !req.txId) throw reject("MISSING_REQUIRED_FIELD", "tx_id");
      if (req.kind === "CHANGE_AMOUNT" && !req.amount) throw reject("MISSING_REQUIRED_FIELD", "amount");
      const amount = parseDecimal(req.amount || "1");
      if (!amount?.isPositive() || amount.isZero())
        throw invalid("amount", "amount must be a positive decimal");
      await insertDiscrepancy(db, day.day, {
        discrepancyId,
        kind: req.kind,
        txId: req.txId || (unknown ? newId("tx") : ""),
        amount: req.amount,
        currency: req.currency,
        createdAt: now(),
      });
      return { discrepancyId };
    },
  };
}
