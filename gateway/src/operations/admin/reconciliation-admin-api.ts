/**
 * Shapes and operations of reconciliation against the rail (`reconciliation-admin-routes.ts`): start a run
 * of a rail and UTC day, list runs and breaks, resolve a break with a note; and the sandbox rail's
 * discrepancy control that exercises it.
 */
import { BREAK_TYPES } from "@payouts/ledger/reconciliation-breaks";
import { defineOperations, ok } from "../../api/operation.js";
import { ClosedObject, component, Nullable, type Static, StringEnum, Type } from "../../api/schema.js";
import { Id, IdParam, ListPage, PAGE_CASES, Paging, Query } from "./console-query-shapes.js";

const TAG = ["Reconciliation"];

const Day = (description: string) =>
  Type.String({
    pattern: "^\\d{4}-\\d{2}-\\d{2}$",
    description: `${description} YYYY-MM-DD, UTC.`,
    examples: ["2026-11-27"],
  });
const RailName = Type.String({
  pattern: "^[a-z][a-z0-9_-]{0,62}$",
  description: "The rail's name; the ledger's rail (`sandbox` by default) when left out.",
  examples: ["sandbox"],
});
const Operator = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });

export const StartRunRequest = component(
  "StartReconciliationRunRequest",
  Type.Object({
    date: Day("The day to reconcile; not in the future."),
    rail: Type.Optional(RailName),
    started_by: Type.Optional(Operator("Who starts it, kept on the run; `admin-api` when left out.")),
  }),
);

export const ReconciliationRun = ClosedObject("ReconciliationRun", {
  run_id: Type.String(),
  rail: Type.String(),
  date: Type.String({ description: "The reconciled UTC day." }),
  status: StringEnum(["RUNNING", "COMPLETED", "FAILED"]),
  started_by: Type.String(),
  rail_records: Type.Integer({ minimum: 0, description: "Records the rail listed for the day." }),
  ledger_payouts: Type.Integer({
    minimum: 0,
    description: "Payouts the ledger noted as accepted that day.",
  }),
  breaks_found: Type.Integer({ minimum: 0, description: "Breaks this run found." }),
  breaks_opened: Type.Integer({
    minimum: 0,
    description: "Of those, the new ones: a break already open or resolved for the day is not opened again.",
  }),
  error: Type.String(),
  started_at: Nullable.Timestamp("Start."),
  finished_at: Nullable.Timestamp("End; null while running."),
});
export type ReconciliationRun = Static<typeof ReconciliationRun>;

export const ReconciliationBreak = ClosedObject("ReconciliationBreak", {
  break_id: Type.String(),
  rail: Type.String(),
  date: Type.String(),
  type: StringEnum(BREAK_TYPES),
  key: Type.String({
    description: "The tx_id, or the rail's reference for a record the ledger does not know.",
  }),
  tx_id: Type.String(),
  rail_reference: Type.String(),
  ledger_amount: Nullable.Text("Local amount in the ledger; null when it has none."),
  rail_amount: Nullable.Text("Local amount the rail listed; null when it listed none."),
  currency: Type.String(),
  ledger_status: Type.String(),
  rail_status: Type.String(),
  detail: Type.String(),
  run_id: Type.String({ description: "The run that opened it." }),
  opened_at: Nullable.Timestamp("Opened."),
  resolution: Nullable(
    Type.Object(
      { note: Type.String(), resolved_by: Type.String(), resolved_at: Nullable.Timestamp("Resolved.") },
      { additionalProperties: false },
    ),
    "The operator's resolution; null while open.",
  ),
});
export type ReconciliationBreak = Static<typeof ReconciliationBreak>;

export const RunQuery = Query({
  rail: Type.Optional(RailName),
  date: Type.Optional(Day("One day's runs.")),
  ...Paging(20),
});

export const BreakQuery = Query({
  rail: Type.Optional(RailName),
  date: Type.Optional(Day("One day's breaks.")),
  type: Type.Optional(StringEnum(BREAK_TYPES)),
  run_id: Type.Optional(Id("The breaks one run opened.", "rcn_01m7xx9726hzfmmn1fcz6t8605")),
  state: Type.Optional(StringEnum(["open", "resolved"], { description: "Both when left out." })),
  ...Paging(50),
});

export const RunPage = ListPage("ReconciliationRunPage", "runs", ReconciliationRun);
export const BreakPage = ListPage("ReconciliationBreakPage", "breaks", ReconciliationBreak);

export const BreakParams = Type.Object({
  break_id: IdParam("break", "brk_01m7xx9726hzfmmn1fcz6t8605"),
});

export const ResolveBreakRequest = component(
  "ResolveBreakRequest",
  Type.Object({
    note: Type.String({
      minLength: 1,
      maxLength: 2000,
      description: "What was found and done; kept on the break.",
    }),
    resolved_by: Operator("Who resolves it."),
  }),
);

export const DateParams = Type.Object({ date: Day("The day of the rail's records.") });

export const DiscrepancyRequest = component(
  "SandboxDiscrepancyRequest",
  Type.Object({
    kind: StringEnum([
      "DROP_RECORD",
      "CHANGE_AMOUNT",
      "ADD_UNKNOWN_RECORD",
      "DUPLICATE_RECORD",
      "FLIP_STATUS",
    ]),
    tx_id: Type.Optional(
      Type.String({ maxLength: 100, description: "The payout; left out for ADD_UNKNOWN_RECORD." }),
    ),
    amount: Type.Optional(
      Type.String({
        pattern: "^\\d+(\\.\\d+)?$",
        description: "CHANGE_AMOUNT: the amount to show; ADD_UNKNOWN_RECORD: its amount (1 when left out).",
      }),
    ),
    currency: Type.Optional(
      Type.String({ pattern: "^[A-Z]{3}$", description: "ADD_UNKNOWN_RECORD: its currency." }),
    ),
  }),
);

export const Discrepancy = ClosedObject("SandboxDiscrepancy", { discrepancy_id: Type.String() });
export type Discrepancy = Static<typeof Discrepancy>;

const operations = defineOperations(
  { tags: TAG },
  {
    startReconciliationRun: {
      route: "POST /admin/reconciliation/runs",
      role: "operator",
      summary: "Reconcile a rail's day now",
      description:
        "Compares the rail's settlement records of the UTC day with the ledger's payouts of that day and opens a break per disagreement. Safe to repeat: a break already open or resolved for the day is not opened again (`breaks_opened` 0 on a repeat).",
      body: StartRunRequest,
      responses: ok("The finished run.", ReconciliationRun),
      errors: [
        ["INVALID_FIELD", "`date` is not a real day or is in the future"],
        ["UNKNOWN_RAIL", "the ledger submits to no rail of this name"],
        ["SERVICE_UNAVAILABLE", "the rail did not answer with its records; the run is kept as FAILED"],
      ],
    },
    listReconciliationRuns: {
      route: "GET /admin/reconciliation/runs",
      role: "viewer",
      summary: "Reconciliation runs",
      description: "Newest first.",
      query: RunQuery,
      responses: ok("A page.", RunPage),
      errors: PAGE_CASES,
    },
    listReconciliationBreaks: {
      route: "GET /admin/reconciliation/breaks",
      role: "viewer",
      summary: "Reconciliation breaks",
      description: "Newest first, filtered; each with its resolution once resolved.",
      query: BreakQuery,
      responses: ok("A page.", BreakPage),
      errors: [...PAGE_CASES, ["RECONCILIATION_RUN_NOT_FOUND", "`run_id` names no run"]],
    },
    resolveReconciliationBreak: {
      route: "POST /admin/reconciliation/breaks/{break_id}/resolve",
      role: "finance",
      summary: "Resolve a reconciliation break",
      description:
        "Records the operator's note, who and when. It moves no money: a correction is a refund, a failure or a credit of its own. A break is resolved once and stays resolved when later runs find it again.",
      pathParams: BreakParams,
      body: ResolveBreakRequest,
      responses: ok("The resolved break.", ReconciliationBreak),
      errors: [
        ["RECONCILIATION_BREAK_NOT_FOUND", "no such break"],
        ["BREAK_ALREADY_RESOLVED", "the break was already resolved; the first resolution stands"],
      ],
    },
    injectSandboxSettlementDiscrepancy: {
      route: "POST /admin/sandbox/settlements/{date}/discrepancies",
      role: "admin",
      summary: "Sandbox rail: plant a discrepancy in a day's settlement records",
      description:
        "Changes what the sandbox rail reports for the day (not what it did), to exercise reconciliation. The rail refuses it in production mode (403 `SANDBOX_CONTROL_DISABLED`).",
      tags: ["Sandbox"],
      pathParams: DateParams,
      body: DiscrepancyRequest,
      responses: { 201: { description: "Planted.", schema: Discrepancy } },
      errors: [
        ["INVALID_FIELD", "`date` is not a real day, or `amount` is not above 0"],
        ["MISSING_REQUIRED_FIELD", "`tx_id` (every kind but ADD_UNKNOWN_RECORD) or `amount` (CHANGE_AMOUNT)"],
      ],
    },
  },
);
export const {
  startReconciliationRun,
  listReconciliationRuns,
  listReconciliationBreaks,
  resolveReconciliationBreak,
  injectSandboxSettlementDiscrepancy: injectSandboxDiscrepancy,
} = operations;
export const RECONCILIATION_ADMIN_OPERATIONS = Object.values(operations);
