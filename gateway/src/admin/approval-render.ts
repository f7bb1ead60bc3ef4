import { decisionRefusal, effectiveStatus } from "../approvals/four-eyes-rules.js";
import type { ApprovalOutcome, ApprovalRequest } from "../operations/admin/approval-admin-api.js";
import type { ApprovalRecord } from "../store/approval-store.js";
import type { AdminActor } from "./admin-actor.js";

/**
 * An approval request on the wire, as `viewer` sees it: a PENDING one past its deadline shows as EXPIRED,
 * and `approval_refusal` says whether the viewer may approve it.
 */
export function renderApproval(
  record: ApprovalRecord,
  viewer: AdminActor,
  now = new Date(),
): ApprovalRequest {
  const actor = (a: NonNullable<ApprovalRecord["decidedBy"]>) => ({ id: a.id, name: a.name, kind: a.kind });
  return {
    approval_id: record.approvalId,
    action: record.action,
    target: { partner_id: record.partnerId, tx_id: record.txId },
    amount_usd: record.amountUsd,
    request: record.requestBody,
    requested_by: actor(record.requestedBy),
    created_at: record.createdAt.toISOString(),
    expires_at: record.expiresAt.toISOString(),
    status: effectiveStatus(record, now),
    decided_by: record.decidedBy && actor(record.decidedBy),
    decided_at: record.decidedAt?.toISOString() ?? null,
    reason: record.decisionReason,
    outcome: (record.outcome as ApprovalOutcome | null) ?? null,
    approval_refusal: decisionRefusal(record, viewer, "approve", now) ?? null,
  };
}
