/**
 * The audit trail of the admin API (`admin/audit-admin-routes.ts`): the records of state-changing admin
 * requests, newest first, their CSV export, and the check of their hash chain.
 */
import { defineOperations, ok } from "../../api/operation.js";
import {
  ClosedObject,
  Nullable,
  QueryDate,
  type Static,
  StringEnum,
  Timestamp,
  Type,
} from "../../api/schema.js";
import { AUDIT_OUTCOMES } from "../../audit/audit-outcome.js";
import { ListPage, PAGE_CASES, Paging, QUERY_CASE, Query } from "./console-query-shapes.js";

const AUDIT_TAG = ["Audit"];

const Text = (description: string, example: string) =>
  Type.String({ minLength: 1, maxLength: 200, description, examples: [example] });

const FILTERS = {
  actor: Type.Optional(
    Text("An actor's id or name, or the user name a failed sign-in gave.", "mc_admin_token"),
  ),
  route: Type.Optional(
    Text("The route template as recorded (`/admin/partners/:partner_id`).", "/admin/partners/:partner_id"),
  ),
  target_id: Type.Optional(
    Text("Any path parameter's value, e.g. a partner id.", "ptr_01m7xx9726hzfmmn1fcz6t8605"),
  ),
  outcome: Type.Optional(
    StringEnum(AUDIT_OUTCOMES, {
      description:
        "`succeeded` (below 400), `refused` (4xx), `failed` (5xx) or `unknown` (started, no answer recorded).",
    }),
  ),
  from: Type.Optional(QueryDate("Recorded at or after.", ["2026-05-01T00:00:00Z"])),
  to: Type.Optional(QueryDate("Recorded before.", ["2026-05-02"])),
};

export const AuditSearchQuery = Query({
  ...FILTERS,
  ...Paging(50),
});
export const AuditExportQuery = Query(FILTERS);

export const AuditRecordShape = ClosedObject("AuditRecord", {
  sequence: Type.Integer({ minimum: 1, description: "Its place in the hash chain." }),
  phase: StringEnum(["started", "finished"], {
    description:
      "`finished`: the answer is recorded; `started`: the handler began and no answer was recorded.",
  }),
  started_sequence: Nullable(
    Type.Integer(),
    "The request's `started` record; null if refused before its handler.",
  ),
  at: Timestamp("Recorded."),
  actor: Nullable(
    Type.Object(
      {
        id: Type.String(),
        name: Type.String(),
        kind: StringEnum(["operator", "machine"]),
        role: Type.String(),
      },
      { additionalProperties: false },
    ),
    "Who called; null for a caller without a valid credential.",
  ),
  attempted_user: Nullable.Text("The user name a caller without a credential gave."),
  source_address: Type.String(),
  user_agent: Nullable.Text(),
  request_id: Type.String(),
  method: Type.String(),
  route: Type.String({ description: "The matched route's template, not the URL." }),
  target_ids: Type.Record(Type.String(), Type.String(), { description: "The path parameters." }),
  body: Nullable.Text("The JSON body as canonical JSON text, secrets redacted."),
  status: Nullable(Type.Integer(), "The answer's status; null while unknown."),
  error_code: Nullable.Text("The error body's `code`."),
  outcome: StringEnum(AUDIT_OUTCOMES),
  prev_hash: Type.String(),
  hash: Type.String({ description: "SHA-256 of `prev_hash` and the record's canonical JSON." }),
});
export type AuditRecordShape = Static<typeof AuditRecordShape>;

export const AuditPage = ListPage("AuditPage", "records", AuditRecordShape);

export const AuditVerification = ClosedObject("AuditVerification", {
  ok: Type.Boolean({ description: "Every record up to the chain head checks out." }),
  verified_through: Type.Integer({ minimum: 0, description: "The chain is intact up to this sequence." }),
  broken_at: Nullable(Type.Integer(), "The first sequence that does not check out."),
  problem: Nullable.Text("What is wrong there."),
  head_sequence: Type.Integer({ minimum: 0, description: "The last sequence the chain head records." }),
  checked_at: Timestamp("When the check ran."),
});

const operations = defineOperations(
  { tags: AUDIT_TAG },
  {
    searchAuditRecords: {
      route: "GET /admin/audit",
      summary: "The audit trail",
      description:
        "One entry per state-changing admin request (and per export of this trail), newest first: its `finished` record, or its `started` record while no answer was recorded. Reading this list is not recorded.",
      // Who did what, from where: finance and admins review it.
      role: "finance",
      query: AuditSearchQuery,
      responses: ok("A page.", AuditPage),
      errors: PAGE_CASES,
    },
    exportAuditRecords: {
      route: "GET /admin/audit/export.csv",
      summary: "The audit trail as CSV",
      description:
        "The entries `GET /admin/audit` lists with the same filters, all of them, newest first, as RFC 4180 CSV with a header row, streamed. Each export is itself recorded in the trail.",
      role: "finance",
      query: AuditExportQuery,
      responses: {
        200: { description: "The CSV file.", mediaType: "text/csv", schema: Type.String() },
      },
      errors: [QUERY_CASE],
    },
    verifyAuditChain: {
      route: "GET /admin/audit/verification",
      summary: "Check the audit trail's hash chain",
      description:
        "Walks the chain from its first record to its stored head and answers the first sequence that is missing, out of place or changed (also `node services/runtime/dist/cli.js audit-verify`).",
      // Says only whether the chain holds and up to where.
      role: "viewer",
      responses: ok("The verdict.", AuditVerification),
      errors: [],
    },
  },
);
export const {
  searchAuditRecords: searchAudit,
  exportAuditRecords: exportAudit,
  verifyAuditChain: verifyAudit,
} = operations;
export const AUDIT_OPERATIONS = Object.values(operations);
