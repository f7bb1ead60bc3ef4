/**
 * Shapes and operations of four-eyes approvals (`approval-admin-routes.ts`): the inbox of requests that wait
 * for a second operator, one request, and approving or rejecting it. The gated routes themselves (credit,
 * refund, forced failure) answer 202 with an `ApprovalRequest` (ledger-admin-api.ts).
 */
import { defineOperations, ok } from "../../api/operation.js";
import {
  ClosedObject,
  component,
  DecimalString,
  FreeMap,
  Nullable,
  type Static,
  StringEnum,
  Timestamp,
  Type,
} from "../../api/schema.js";
import { APPROVAL_ACTIONS, APPROVAL_STATUSES, DECISION_REFUSALS } from "../../approvals/four-eyes-rules.js";
import type { ErrorCase } from "../../openapi/openapi-errors.js";
import { Id, Limit, QUERY_CASE, Query } from "./console-query-shapes.js";

const TAG = ["Approvals"];

const ApprovalActor = Type.Object(
  {
    id: Type.String({ description: "`op_…` for an operator, `mc_…` for a machine credential." }),
    name: Type.String(),
    kind: StringEnum(["operator", "machine"]),
  },
  { additionalProperties: false },
);

export const ApprovalOutcome = ClosedObject("ApprovalOutcome", {
  succeeded: Type.Boolean({ description: "Whether the ledger carried the action out." }),
  http_status: Type.Integer({ description: "The status the direct route would have answered." }),
  result: Nullable(FreeMap("What the direct route answers: the partner balance or the transaction.")),
  code: Nullable.Text("The error code, when the ledger refused the action."),
  message: Nullable.Text("The error message, when the ledger refused the action."),
});
export type ApprovalOutcome = Static<typeof ApprovalOutcome>;

export const ApprovalRequest = ClosedObject("ApprovalRequest", {
  approval_id: Type.String({ examples: ["apr_01m7xx9726hzfmmn1fcz6t8605"] }),
  action: StringEnum(APPROVAL_ACTIONS, {
    description:
      "BALANCE_CREDIT (above the threshold), REFUND, or FORCE_FAIL (a failure with `force: true`).",
  }),
  target: Type.Object(
    { partner_id: Nullable.Text(), tx_id: Nullable.Text() },
    {
      additionalProperties: false,
      description: "The partner credited, or the transaction and its partner.",
    },
  ),
  amount_usd: Nullable(
    DecimalString("USD: the credit, or the transaction's total for a refund or failure."),
    "Null when the transaction has no quote.",
  ),
  request: FreeMap("The validated request body, carried out as is once approved."),
  requested_by: ApprovalActor,
  created_at: Timestamp("When it was requested."),
  expires_at: Timestamp("After this it can no longer be approved."),
  status: StringEnum(APPROVAL_STATUSES, {
    description:
      "PENDING; EXECUTING (approved, being carried out); APPROVED (carried out: see `outcome`); REJECTED; EXPIRED.",
  }),
  decided_by: Nullable(ApprovalActor, "Who approved or rejected it."),
  decided_at: Nullable.Timestamp("When it was approved or rejected."),
  reason: Nullable.Text("The rejection's reason."),
  outcome: Nullable(ApprovalOutcome, "What carrying it out answered; null until then."),
  approval_refusal: Nullable(
    StringEnum(DECISION_REFUSALS),
    "Why the caller of this request may not approve it now (the code approving would answer); null when they may.",
  ),
});
export type ApprovalRequest = Static<typeof ApprovalRequest>;

export const ApprovalList = ClosedObject("ApprovalList", { approvals: Type.Array(ApprovalRequest) });
export type ApprovalList = Static<typeof ApprovalList>;

export const RejectApprovalRequest = component(
  "RejectApprovalRequest",
  Type.Object({
    reason: Type.String({ minLength: 1, maxLength: 500, description: "Why; kept on the request." }),
  }),
);

const ApprovalParams = Type.Object({
  approval_id: Id("The approval request (`apr_…`).", "apr_01m7xx9726hzfmmn1fcz6t8605"),
});

const APPROVAL_NOT_FOUND: ErrorCase = ["APPROVAL_NOT_FOUND", "no such approval request"];
const DECISION_ERRORS: readonly ErrorCase[] = [
  APPROVAL_NOT_FOUND,
  ["APPROVAL_EXPIRED", "the request expired undecided: it has no effect; ask again"],
  ["APPROVAL_ALREADY_DECIDED", "the request was already approved or rejected (by this call's race too)"],
  ["APPROVAL_ROLE_REQUIRED", "the caller's role is below the one the action needs (finance for money)"],
];

const operations = defineOperations(
  { tags: TAG },
  {
    listApprovals: {
      route: "GET /admin/approvals",
      role: "viewer",
      summary: "Approval requests (the inbox)",
      description: "Newest first. A PENDING request past its deadline is listed as EXPIRED.",
      query: Query({
        status: Type.Optional(
          StringEnum(APPROVAL_STATUSES, { description: "Only requests of this status." }),
        ),
        limit: Type.Optional(Limit(50)),
      }),
      responses: ok("The requests.", ApprovalList),
      errors: [QUERY_CASE],
    },
    getApproval: {
      route: "GET /admin/approvals/{approval_id}",
      role: "viewer",
      summary: "One approval request",
      description:
        "An approved request whose execution was interrupted (still EXECUTING a while after the decision) is carried out again on this read, with the same idempotency key.",
      pathParams: ApprovalParams,
      responses: ok("The request.", ApprovalRequest),
      errors: [APPROVAL_NOT_FOUND],
    },
    approveApproval: {
      route: "POST /admin/approvals/{approval_id}/approve",
      // The least role that may decide any request; the request's action sets the role it needs
      // (APPROVAL_ROLE_REQUIRED: finance for every money action).
      role: "operator",
      summary: "Approve a request: it is carried out now",
      description:
        "Only another person than the requester, with the action's role, may approve; a machine credential never does. Of concurrent approvals exactly one carries the action out; the others answer `APPROVAL_ALREADY_DECIDED`. The ledger's refusal (e.g. `TRANSACTION_NOT_REFUNDABLE`) is recorded in `outcome`; a ledger that does not answer leaves the request EXECUTING (503), carried out again later.",
      pathParams: ApprovalParams,
      responses: ok("Approved and carried out: see `outcome`.", ApprovalRequest),
      errors: [
        ...DECISION_ERRORS,
        ["APPROVAL_BY_REQUESTER", "the caller requested it: a second person must approve"],
        ["APPROVAL_BY_MACHINE", "a machine credential may not approve"],
      ],
    },
    rejectApproval: {
      route: "POST /admin/approvals/{approval_id}/reject",
      role: "operator",
      summary: "Reject a request: it has no effect",
      description: "The requester may reject (withdraw) their own request.",
      pathParams: ApprovalParams,
      body: RejectApprovalRequest,
      responses: ok("Rejected.", ApprovalRequest),
      errors: [...DECISION_ERRORS],
    },
  },
);
export const { listApprovals, getApproval, approveApproval, rejectApproval } = operations;
export const APPROVAL_ADMIN_OPERATIONS = Object.values(operations);
