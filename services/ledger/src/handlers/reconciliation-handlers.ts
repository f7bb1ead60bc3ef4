/**
 * payouts.ledger.v1.ReconciliationService: start a reconciliation run, list runs and breaks, resolve a
 * break with a note (caller gateway-admin only). Bad input is INVALID_FIELD or MISSING_REQUIRED_FIELD
 * naming the field.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { parseUtcDay, type UtcDay } from "@payouts/platform/time/utc-day";
import {
  BreakResolutionSchema,
  ReconciliationBreakSchema,
  ReconciliationRunSchema,
  type ReconciliationService,
} from "@payouts/proto/payouts/ledger/v1/reconciliation_pb";
import { isBreakType } from "../domain/break-types.js";
import { invalidField, LEDGER, ledgerFailure, missingField } from "../domain/ledger-failure.js";
import { pageSize, splitPage } from "../domain/list-cursor.js";
import type { LedgerDeps } from "../operations/ledger-deps.js";
import { resolveBreak } from "../operations/resolve-break.js";
import { runReconciliation } from "../operations/run-reconciliation.js";
import type { SettlementSource } from "../rail/settlement-source.js";
import {
  findRun,
  listBreaks,
  listRuns,
  type ReconciliationRun,
  type StoredBreak,
} from "../store/reconciliation-store.js";
import { mapFailures } from "./ledger-handlers.js";

const MAX_NOTE = 2000;
const MAX_NAME = 200;

export function createReconciliationHandlers(
  deps: Pick<LedgerDeps, "db" | "logger" | "now">,
  source: SettlementSource | undefined,
): ServiceImpl<typeof ReconciliationService> {
  const { db } = deps;
  return mapFailures({
    async startReconciliationRun(req) {
      if (!source) throw ledgerFailure(LEDGER.of("UNKNOWN_RAIL", req.rail || "(none configured)"));
      if (req.rail && req.rail !== source.rail) throw ledgerFailure(LEDGER.of("UNKNOWN_RAIL", req.rail));
      const day = requiredDay(req.date);
      if (day.start > deps.now()) throw invalidField("date", "must not be in the future");
      const startedBy = name(req.startedBy, "started_by");
      return { run: runMessage(await runReconciliation(deps, source, day, startedBy)) };
    },

    async listReconciliationRuns(req) {
      const limit = pageSize(req.limit);
      const rows = await listRuns(db, {
        rail: req.rail || undefined,
        day: req.date ? requiredDay(req.date).day : undefined,
        before: idCursor(req.cursor, "rcn"),
        limit: limit + 1,
      });
      const { page, nextCursor } = splitPage(rows, limit, (last) => last.runId);
      return { runs: page.map(runMessage), nextCursor };
    },

    async listReconciliationBreaks(req) {
      const limit = pageSize(req.limit);
      if (req.type && !isBreakType(req.type)) throw invalidField("type", "is not a break type");
      if (req.state && req.state !== "open" && req.state !== "resolved") {
        throw invalidField("state", "must be open or resolved");
      }
      const runId = req.runId ? idCursor(req.runId, "rcn", "run_id") : undefined;
      if (runId && !(await findRun(db, runId))) {
        throw ledgerFailure(LEDGER.of("RECONCILIATION_RUN_NOT_FOUND", runId));
      }
      const rows = await listBreaks(db, {
        rail: req.rail || undefined,
        day: req.date ? requiredDay(req.date).day : undefined,
        type: req.type && isBreakType(req.type) ? req.type : undefined,
        runId,
        open: req.state === "" ? undefined : req.state === "open",
        before: idCursor(req.cursor, "brk"),
        limit: limit + 1,
      });
      const { page, nextCursor } = splitPage(rows, limit, (last) => last.breakId);
      return { breaks: page.map(breakMessage), nextCursor };
    },

    async resolveReconciliationBreak(req) {
      if (!req.breakId) throw missingField("break_id");
      const note = req.note.trim();
      if (!note) throw missingField("note");
      if (note.length > MAX_NOTE) throw invalidField("note", `must be at most ${MAX_NOTE} characters`);
      const resolved = await resolveBreak(deps, {
        breakId: req.breakId,
        note,
        resolvedBy: name(req.resolvedBy, "resolved_by"),
      });
      return { break: breakMessage(resolved) };
    },
  });
}

function requiredDay(date: string): UtcDay {
  if (!date) throw missingField("date");
  const day = parseUtcDay(date);
  if (!day) throw invalidField("date", "must be a UTC day, YYYY-MM-DD");
  return day;
}

function name(value: string, field: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw missingField(field);
  if (trimmed.length > MAX_NAME) throw invalidField(field, `must be at most ${MAX_NAME} characters`);
  return trimmed;
}

/** A page cursor is the id of the previous page's last item. */
function idCursor(cursor: string, prefix: string, field = "cursor"): string | undefined {
  if (!cursor) return undefined;
  if (!new RegExp(`^${prefix}_[0-9a-z]{26}$`).test(cursor))
    throw invalidField(field, "is not one this service gave");
  return cursor;
}

// The messages take the stored fields of the same name as they are; `create` reads only the schema's fields.
function runMessage(run: ReconciliationRun) {
  return create(ReconciliationRunSchema, {
    ...run,
    date: run.day,
    startedAt: timestampFromDate(run.startedAt),
    finishedAt: run.finishedAt ? timestampFromDate(run.finishedAt) : undefined,
  });
}

function breakMessage(b: StoredBreak) {
  return create(ReconciliationBreakSchema, {
    ...b,
    date: b.day,
    ledgerAmount: b.ledgerAmount ?? "",
    railAmount: b.railAmount ?? "",
    openedAt: timestampFromDate(b.openedAt),
    resolution: b.resolution
      ? create(BreakResolutionSchema, {
          note: b.resolution.note,
          resolvedBy: b.resolution.resolvedBy,
          resolvedAt: timestampFromDate(b.resolution.resolvedAt),
        })
      : undefined,
  });
}
