/**
 * Four-eyes approval of money actions on the admin API, as rules without I/O: which action needs a second
 * operator, who may decide a pending request, and what a decision leads to. The store and the routes
 * (store/approval-store.ts, admin/approval-admin-routes.ts) apply these answers; they decide nothing themselves.
 */
import { Dec } from "@payouts/platform/money/decimal";
import { type AdminActor, hasRole, type OperatorRole } from "../admin/admin-actor.js";

/** The actions that can wait for a second operator. */
export const APPROVAL_ACTIONS = ["BALANCE_CREDIT", "REFUND", "FORCE_FAIL"] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/**
 * PENDING → EXECUTING (approved, the action is being carried out) → APPROVED (carried out; the outcome holds
 * the ledger's answer or its error code); PENDING → REJECTED; PENDING → EXPIRED once past `expires_at`.
 */
export const APPROVAL_STATUSES = ["PENDING", "EXECUTING", "APPROVED", "REJECTED", "EXPIRED"] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** The least role that may approve or reject each action. Every action here moves money. */
export const DECIDING_ROLE: Readonly<Record<ApprovalAction, OperatorRole>> = {
  BALANCE_CREDIT: "finance",
  REFUND: "finance",
  FORCE_FAIL: "finance",
};

export interface FourEyesPolicy {
  /** Off: every action acts at once, as without this feature (a single-operator sandbox). */
  readonly enabled: boolean;
  /** A credit strictly above this many USD waits for approval; 0 makes every credit wait. */
  readonly creditThresholdUsd: string;
  /** How long a request waits for a decision before it expires. */
  readonly ttlMs: number;
}

/** What an admin money route is asked to do, as far as the policy cares. */
export type MoneyAction =
  | { readonly kind: "credit"; readonly amountUsd: string }
  | { readonly kind: "refund" }
  | { readonly kind: "fail"; readonly force: boolean };

/**
 * The approval `action` needs, or undefined when it acts at once: a credit above the threshold, every
 * refund, and a forced failure (`force: true`, which skips asking the rail whether it has the payout). A
 * failure the rail confirms is not gated: the rail's answer is the second check.
 */
export function approvalNeeded(policy: FourEyesPolicy, action: MoneyAction): ApprovalAction | undefined {
  if (!policy.enabled) return undefined;
  switch (action.kind) {
    case "credit":
      return new Dec(action.amountUsd).gt(new Dec(policy.creditThresholdUsd)) ? "BALANCE_CREDIT" : undefined;
    case "refund":
      return "REFUND";
    case "fail":
      return action.force ? "FORCE_FAIL" : undefined;
  }
}

/** The fields of a stored request the decision rules read. */
export interface PendingApproval {
  readonly action: ApprovalAction;
  readonly status: ApprovalStatus;
  readonly requestedBy: Pick<AdminActor, "id" | "kind">;
  readonly expiresAt: Date;
}

/** Why a decision is refused: each a stable code on the wire. */
export const DECISION_REFUSALS = [
  "APPROVAL_ALREADY_DECIDED",
  "APPROVAL_EXPIRED",
  "APPROVAL_BY_REQUESTER",
  "APPROVAL_BY_MACHINE",
  "APPROVAL_ROLE_REQUIRED",
] as const;
export type DecisionRefusal = (typeof DECISION_REFUSALS)[number];

export type Decision = "approve" | "reject";

/**
 * Whether `actor` may take `decision` on `request` at `now`; the first failing check wins, in this order:
 * the request must still be PENDING and unexpired; an approval must come from someone else than the
 * requester (whatever the credentials: the same id), and from a person — a machine credential never
 * approves, since a script holding two tokens would otherwise approve its own requests; the decider needs
 * at least the action's role. Rejecting moves no money: the requester may withdraw their own request, and
 * a machine credential with the role may reject.
 */
export function decisionRefusal(
  request: PendingApproval,
  actor: AdminActor,
  decision: Decision,
  now: Date,
): DecisionRefusal | undefined {
  if (request.status === "EXPIRED" || (request.status === "PENDING" && isExpired(request, now))) {
    return "APPROVAL_EXPIRED";
  }
  if (request.status !== "PENDING") return "APPROVAL_ALREADY_DECIDED";
  if (decision === "approve") {
    if (actor.id === request.requestedBy.id) return "APPROVAL_BY_REQUESTER";
    if (actor.kind === "machine") return "APPROVAL_BY_MACHINE";
  }
  if (!hasRole(actor.role, DECIDING_ROLE[request.action])) return "APPROVAL_ROLE_REQUIRED";
  return undefined;
}

/** Whether a PENDING request is past its deadline (it then counts as EXPIRED whether or not stored so). */
export const isExpired = (request: Pick<PendingApproval, "expiresAt">, now: Date): boolean =>
  now.getTime() >= request.expiresAt.getTime();

/** The status to show: a PENDING request past its deadline is EXPIRED. */
export const effectiveStatus = (request: Pick<PendingApproval, "status" | "expiresAt">, now: Date) =>
  request.status === "PENDING" && isExpired(request, now) ? "EXPIRED" : request.status;

/**
 * Whether an approved request left in EXECUTING (the process stopped between the claim and recording the
 * outcome) should be carried out again: once `staleAfterMs` has passed since the decision, so that a
 * re-run does not overlap the first attempt still in flight. Re-running is safe: a credit reuses its
 * idempotency key (the ledger answers the first credit), and a refund or failure is refused by the ledger
 * once done.
 */
export const needsRedrive = (
  request: { readonly status: ApprovalStatus; readonly decidedAt: Date | null },
  now: Date,
  staleAfterMs: number,
): boolean =>
  request.status === "EXECUTING" &&
  request.decidedAt !== null &&
  now.getTime() - request.decidedAt.getTime() >= staleAfterMs;
