/**
 * The console's only door to the admin API: one method per route, over @payouts/client/admin (typed from the
 * admin OpenAPI document, Bearer token on every request). Views never build URLs or bodies themselves.
 * A failed call rejects with the client's PayoutsError (status, code, field, request_id; status 0 without an
 * answer).
 */
import { createAdminClient, dataOf } from "@payouts/client/admin";
import type * as T from "./types";

export type { T as Types };

/** A fresh idempotency key per money-moving action; a retry of the same action reuses its key. */
export const newIdempotencyKey = (purpose: string) => `console-${purpose}-${crypto.randomUUID()}`;

/** A search form's values for query Q: plain strings the operator typed, checked by the API (400 naming the field). */
type Form<Q> = { [K in keyof Q]?: string | number | undefined };

/** Drops the empty fields of a search form: the API refuses an empty filter rather than ignoring it. */
function compact<Q extends object>(form: Form<Q>): Q {
  return Object.fromEntries(Object.entries(form).filter(([, v]) => v !== undefined && v !== "")) as Q;
}

/**
 * The admin API with a machine token, or (no token) with the operator's session cookie. Every request
 * carries `X-Requested-With`, which the admin listener requires of cookie-authenticated writes (CSRF).
 */
export function createAdminApi(token?: string) {
  const admin = createAdminClient({
    // The admin listener serves the console, so the API is this page's origin.
    baseUrl: window.location.origin,
    ...(token ? { token } : {}),
    headers: { "X-Requested-With": "payouts-console" },
    // Live figures must never come from the browser's HTTP cache.
    fetch: (request) => fetch(new Request(request, { cache: "no-store" })),
  });
  const partner = (partner_id: string) => ({ params: { path: { partner_id } } });
  const app = (partner_id: string, client_id: string) => ({ params: { path: { partner_id, client_id } } });
  const tx = (tx_id: string) => ({ params: { path: { tx_id } } });

  return {
    // Sessions
    whoAmI: () => dataOf(admin.GET("/admin/session")),
    signIn: (username: string, password: string, totp: string) =>
      dataOf(admin.POST("/admin/session", { body: { username, password, totp } })),
    signOut: () => dataOf(admin.DELETE("/admin/session")),
    signInOptions: () => dataOf(admin.GET("/admin/sign-in-options")),

    // Reference data
    listFxRates: () => dataOf(admin.GET("/admin/fx-rates")),
    putFxRate: (currency: string, rate_per_usd: string) =>
      dataOf(
        admin.PUT("/admin/fx-rates/{currency}", { params: { path: { currency } }, body: { rate_per_usd } }),
      ),
    listCorridors: () => dataOf(admin.GET("/admin/corridors")),
    putCorridor: (country_code: string, body: T.CorridorInput) =>
      dataOf(admin.PUT("/admin/corridors/{country_code}", { params: { path: { country_code } }, body })),

    // Partners
    listPartners: (query: Form<T.PartnerQuery>) =>
      dataOf(admin.GET("/admin/partners", { params: { query: compact<T.PartnerQuery>(query) } })),
    getPartner: (partnerId: string) => dataOf(admin.GET("/admin/partners/{partner_id}", partner(partnerId))),
    createPartner: (body: T.PartnerInput) => dataOf(admin.POST("/admin/partners", { body })),
    updatePartner: (partnerId: string, body: T.PartnerUpdate) =>
      dataOf(admin.PATCH("/admin/partners/{partner_id}", { ...partner(partnerId), body })),
    listApps: (partnerId: string) =>
      dataOf(admin.GET("/admin/partners/{partner_id}/apps", partner(partnerId))),
    createApp: (partnerId: string, body: { preview_rate_limit_per_minute?: number }) =>
      dataOf(admin.POST("/admin/partners/{partner_id}/apps", { ...partner(partnerId), body })),
    revokeApp: (partnerId: string, clientId: string) =>
      dataOf(admin.DELETE("/admin/partners/{partner_id}/apps/{client_id}", app(partnerId, clientId))),
    setAppRateLimit: (partnerId: string, clientId: string, perMinute: number) =>
      dataOf(
        admin.PATCH("/admin/partners/{partner_id}/apps/{client_id}", {
          ...app(partnerId, clientId),
          body: { preview_rate_limit_per_minute: perMinute },
        }),
      ),
    getBalance: (partnerId: string) =>
      dataOf(admin.GET("/admin/partners/{partner_id}/balance", partner(partnerId))),
    creditBalance: (partnerId: string, amount_usd: string, reference: string, idempotencyKey: string) =>
      dataOf(
        admin.POST("/admin/partners/{partner_id}/balance/credits", {
          params: { path: { partner_id: partnerId }, header: { "X-Idempotency-Key": idempotencyKey } },
          body: { amount_usd, reference },
        }),
      ),
    listBalanceEntries: (partnerId: string, query: Form<T.BalanceEntryQuery>) =>
      dataOf(
        admin.GET("/admin/partners/{partner_id}/balance/entries", {
          params: { path: { partner_id: partnerId }, query: compact<T.BalanceEntryQuery>(query) },
        }),
      ),
    getStatementSettings: (partnerId: string) =>
      dataOf(admin.GET("/admin/partners/{partner_id}/statement-settings", partner(partnerId))),
    putStatementSettings: (partnerId: string, time_zone: string) =>
      dataOf(
        admin.PUT("/admin/partners/{partner_id}/statement-settings", {
          ...partner(partnerId),
          body: { time_zone },
        }),
      ),

    // Transactions
    overview: () => dataOf(admin.GET("/admin/overview")),
    searchTransactions: (query: Form<T.TransactionQuery>) =>
      dataOf(admin.GET("/admin/transactions", { params: { query: compact<T.TransactionQuery>(query) } })),
    getTransaction: (txId: string) => dataOf(admin.GET("/admin/transactions/{tx_id}", tx(txId))),
    refund: (txId: string, reason: string) =>
      dataOf(admin.POST("/admin/transactions/{tx_id}/refund", { ...tx(txId), body: { reason } })),
    forceFail: (txId: string, reason: string) =>
      dataOf(admin.POST("/admin/transactions/{tx_id}/fail", { ...tx(txId), body: { reason, force: true } })),
    settle: (txId: string, outcome: "SUCCESS" | "FAILED", reason: string) =>
      dataOf(
        admin.POST("/admin/sandbox/transactions/{tx_id}/settle", { ...tx(txId), body: { outcome, reason } }),
      ),

    // Four-eyes approvals
    listApprovals: (status: T.ApprovalStatus | "") =>
      dataOf(
        admin.GET("/admin/approvals", {
          params: { query: status ? { status, limit: 100 } : { limit: 100 } },
        }),
      ),
    approve: (approval_id: string) =>
      dataOf(admin.POST("/admin/approvals/{approval_id}/approve", { params: { path: { approval_id } } })),
    reject: (approval_id: string, reason: string) =>
      dataOf(
        admin.POST("/admin/approvals/{approval_id}/reject", {
          params: { path: { approval_id } },
          body: { reason },
        }),
      ),

    // Webhooks
    listDeliveries: (query: Form<T.DeliveryQuery>) =>
      dataOf(admin.GET("/admin/webhook-deliveries", { params: { query: compact<T.DeliveryQuery>(query) } })),
    redeliver: (delivery_id: string) =>
      dataOf(
        admin.POST("/admin/webhook-deliveries/{delivery_id}/redeliver", {
          params: { path: { delivery_id } },
        }),
      ),
    listWebhookConfigs: (query: Form<T.WebhookConfigQuery>) =>
      dataOf(
        admin.GET("/admin/webhook-configs", { params: { query: compact<T.WebhookConfigQuery>(query) } }),
      ),
    setWebhookConfigEnabled: (config_id: string, enabled: boolean, reason?: string) =>
      dataOf(
        admin.PATCH("/admin/webhook-configs/{config_id}", {
          params: { path: { config_id } },
          body: { enabled, ...(reason ? { reason } : {}) },
        }),
      ),
    listReceiverHealth: (query: Form<T.ReceiverHealthQuery>) =>
      dataOf(
        admin.GET("/admin/webhook-receivers", { params: { query: compact<T.ReceiverHealthQuery>(query) } }),
      ),
    setReceiverPaused: (config_id: string, paused: boolean) =>
      dataOf(
        paused
          ? admin.POST("/admin/webhook-receivers/{config_id}/pause", { params: { path: { config_id } } })
          : admin.POST("/admin/webhook-receivers/{config_id}/resume", { params: { path: { config_id } } }),
      ),

    // Bulk payouts
    listBatches: (query: Form<T.BatchQuery>) =>
      dataOf(admin.GET("/admin/batches", { params: { query: compact<T.BatchQuery>(query) } })),
    getBatch: (batch_id: string) =>
      dataOf(admin.GET("/admin/batches/{batch_id}", { params: { path: { batch_id } } })),
    listBatchItems: (batch_id: string, query: Form<T.BatchItemQuery>) =>
      dataOf(
        admin.GET("/admin/batches/{batch_id}/items", {
          params: { path: { batch_id }, query: compact<T.BatchItemQuery>(query) },
        }),
      ),
    cancelBatch: (batch_id: string) =>
      dataOf(admin.POST("/admin/batches/{batch_id}/cancel", { params: { path: { batch_id } } })),

    // Reconciliation against the rail
    startReconciliationRun: (date: string) =>
      dataOf(admin.POST("/admin/reconciliation/runs", { body: { date, started_by: "console" } })),
    listReconciliationRuns: (query: Form<T.ReconciliationRunQuery>) =>
      dataOf(
        admin.GET("/admin/reconciliation/runs", {
          params: { query: compact<T.ReconciliationRunQuery>(query) },
        }),
      ),
    listReconciliationBreaks: (query: Form<T.ReconciliationBreakQuery>) =>
      dataOf(
        admin.GET("/admin/reconciliation/breaks", {
          params: { query: compact<T.ReconciliationBreakQuery>(query) },
        }),
      ),
    resolveReconciliationBreak: (break_id: string, note: string, resolved_by: string) =>
      dataOf(
        admin.POST("/admin/reconciliation/breaks/{break_id}/resolve", {
          params: { path: { break_id } },
          body: { note, resolved_by },
        }),
      ),

    // Audit trail
    listAuditRecords: (query: Form<T.AuditQuery>) =>
      dataOf(admin.GET("/admin/audit", { params: { query: compact<T.AuditQuery>(query) } })),
    /** The CSV export of the same filters, as a file to save (the download needs the token, so no plain link). */
    exportAuditCsv: (query: Form<T.AuditExportQuery>) =>
      dataOf(
        admin.GET("/admin/audit/export.csv", {
          params: { query: compact<T.AuditExportQuery>(query) },
          parseAs: "blob",
        }),
      ) as Promise<Blob>,
    verifyAuditChain: () => dataOf(admin.GET("/admin/audit/verification")),
  };
}

export type AdminApi = ReturnType<typeof createAdminApi>;

/** Whether a money action's answer is an approval request (202) rather than the action done. */
export const isApprovalRequest = (answer: object): answer is T.ApprovalRequest => "approval_id" in answer;
