import { isPublicAdminRoute } from "@payouts/gateway/internal/admin/admin-access";
import { OPERATOR_ROLES } from "@payouts/gateway/internal/admin/admin-actor";
import { ADMIN_OPERATIONS } from "@payouts/gateway/internal/operations/admin/admin-operations";
import { adminOpenApiDocument } from "@payouts/gateway/openapi";
import { describe, expect, it } from "vitest";

/**
 * The role each admin operation needs, pinned: reads are for viewers; day-to-day actions (webhook
 * redelivery, receivers, reconciliation runs) for operators; money (credits, refunds, forced failures,
 * sandbox settlement, break resolutions, statement corrections) for finance; partners, apps, secrets and
 * reference data for admins. A new operation fails here until its role is added.
 */
const EXPECTED_ROLES: Readonly<Record<string, string>> = {
  "GET /admin/openapi.json": "viewer",
  "GET /admin/session": "viewer",
  "DELETE /admin/session": "viewer",
  "POST /admin/partners": "admin",
  "GET /admin/partners/{partner_id}": "viewer",
  "PATCH /admin/partners/{partner_id}": "admin",
  "POST /admin/partners/{partner_id}/apps": "admin",
  "DELETE /admin/partners/{partner_id}/apps/{client_id}": "admin",
  "POST /admin/partners/{partner_id}/apps/{client_id}/secrets": "admin",
  "GET /admin/partners/{partner_id}/apps/{client_id}/secrets": "viewer",
  "DELETE /admin/partners/{partner_id}/apps/{client_id}/secrets/{secret_id}": "admin",
  "PUT /admin/fx-rates/{currency}": "admin",
  "DELETE /admin/fx-rates/{currency}": "admin",
  "GET /admin/fx-rates": "viewer",
  "PUT /admin/corridors/{country_code}": "admin",
  "GET /admin/corridors": "viewer",
  "POST /admin/partners/{partner_id}/balance/credits": "finance",
  "GET /admin/partners/{partner_id}/balance": "viewer",
  "POST /admin/transactions/{tx_id}/refund": "finance",
  "POST /admin/transactions/{tx_id}/fail": "finance",
  "POST /admin/sandbox/transactions/{tx_id}/settle": "finance",
  // Deciding needs the request's own role too (finance for money: APPROVAL_ROLE_REQUIRED).
  "GET /admin/approvals": "viewer",
  "GET /admin/approvals/{approval_id}": "viewer",
  "POST /admin/approvals/{approval_id}/approve": "operator",
  "POST /admin/approvals/{approval_id}/reject": "operator",
  "GET /admin/partners/{partner_id}/statement-settings": "viewer",
  "PUT /admin/partners/{partner_id}/statement-settings": "admin",
  "POST /admin/partners/{partner_id}/statements/{date}/corrections": "finance",
  "GET /admin/batches": "viewer",
  "GET /admin/batches/{batch_id}": "viewer",
  "GET /admin/batches/{batch_id}/items": "viewer",
  "POST /admin/batches/{batch_id}/cancel": "operator",
  "GET /admin/overview": "viewer",
  "GET /admin/transactions": "viewer",
  "GET /admin/transactions/{tx_id}": "viewer",
  "GET /admin/webhook-deliveries": "viewer",
  "POST /admin/webhook-deliveries/{delivery_id}/redeliver": "operator",
  "GET /admin/webhook-configs": "viewer",
  "PATCH /admin/webhook-configs/{config_id}": "operator",
  "GET /admin/webhook-receivers": "viewer",
  "POST /admin/webhook-receivers/{config_id}/pause": "operator",
  "POST /admin/webhook-receivers/{config_id}/resume": "operator",
  "GET /admin/partners": "viewer",
  "GET /admin/partners/{partner_id}/apps": "viewer",
  "PATCH /admin/partners/{partner_id}/apps/{client_id}": "admin",
  "GET /admin/partners/{partner_id}/balance/entries": "viewer",
  "POST /admin/reconciliation/runs": "operator",
  "GET /admin/reconciliation/runs": "viewer",
  "GET /admin/reconciliation/breaks": "viewer",
  "POST /admin/reconciliation/breaks/{break_id}/resolve": "finance",
  "GET /admin/audit": "finance",
  "GET /admin/audit/export.csv": "finance",
  "GET /admin/audit/verification": "viewer",
  "POST /admin/sandbox/settlements/{date}/discrepancies": "admin",
};

const nonPublic = ADMIN_OPERATIONS.filter((op) => !op.public);
const key = (op: { method: string; path: string }) => `${op.method} ${op.path}`;

describe("the role of every admin operation", () => {
  it("is declared by every non-public operation, and is the one pinned here", () => {
    const declared = Object.fromEntries(nonPublic.map((op) => [key(op), op.role]));
    expect(declared).toEqual(EXPECTED_ROLES);
  });

  it("is absent only from the public routes (probes, metrics, sign-in)", () => {
    for (const op of ADMIN_OPERATIONS.filter((o) => o.role === undefined)) {
      expect(op.public, key(op)).toBe(true);
      expect(isPublicAdminRoute(op.method, op.path), key(op)).toBe(true);
    }
  });

  it("is documented in the admin OpenAPI document as x-required-role and in the description", () => {
    const doc = adminOpenApiDocument();
    for (const op of nonPublic) {
      const documented = doc.paths[op.path]?.[op.method.toLowerCase() as "get"];
      expect(documented?.["x-required-role"], key(op)).toBe(op.role);
      expect(documented?.description, key(op)).toContain(`Requires the \`${op.role}\` role`);
      expect(OPERATOR_ROLES).toContain(op.role);
    }
  });
});
