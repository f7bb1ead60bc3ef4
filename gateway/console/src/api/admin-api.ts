/**
 * The console's only door to the admin API: one method per route. Views never build URLs or bodies
 * themselves, so the transport (and the types' source) changes here alone.
 */
import { call, type Query } from "./transport";
import type * as T from "./types";

export type { T as Types };

let keys = 0;
/** A fresh idempotency key per money-moving action; a retry of the same action reuses its key. */
export const newIdempotencyKey = (purpose: string) =>
  `console-${purpose}-${Date.now().toString(36)}-${(++keys).toString(36)}-${crypto.randomUUID()}`;

export function createAdminApi(token: string) {
  const get = <R>(path: string, query?: Query) => call<R>(token, "GET", path, query ? { query } : {});
  const send = <R>(method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    call<R>(token, method, path, {
      ...(body !== undefined ? { body } : {}),
      ...(headers ? { headers } : {}),
    });
  const seg = encodeURIComponent;

  return {
    // Reference data
    listFxRates: () => get<T.FxRateList>("/admin/fx-rates"),
    putFxRate: (currency: string, ratePerUsd: string) =>
      send<T.FxRate>("PUT", `/admin/fx-rates/${seg(currency)}`, { rate_per_usd: ratePerUsd }),
    listCorridors: () => get<T.CorridorList>("/admin/corridors"),
    putCorridor: (countryCode: string, corridor: T.CorridorInput) =>
      send<T.Corridor>("PUT", `/admin/corridors/${seg(countryCode)}`, corridor),

    // Partners
    listPartners: (query: Query = {}) => get<T.PartnerList>("/admin/partners", query),
    getPartner: (partnerId: string) => get<T.PartnerDetail>(`/admin/partners/${seg(partnerId)}`),
    createPartner: (input: T.PartnerInput) => send<T.Partner>("POST", "/admin/partners", input),
    updatePartner: (partnerId: string, input: Partial<T.PartnerInput>) =>
      send<T.Partner>("PATCH", `/admin/partners/${seg(partnerId)}`, input),
    createApp: (partnerId: string, input: { preview_rate_limit_per_minute?: number }) =>
      send<T.CreatedApp>("POST", `/admin/partners/${seg(partnerId)}/apps`, input),
    revokeApp: (partnerId: string, clientId: string) =>
      send<void>("DELETE", `/admin/partners/${seg(partnerId)}/apps/${seg(clientId)}`),
    setAppRateLimit: (partnerId: string, clientId: string, perMinute: number) =>
      send<T.App>("PATCH", `/admin/partners/${seg(partnerId)}/apps/${seg(clientId)}`, {
        preview_rate_limit_per_minute: perMinute,
      }),
    getBalance: (partnerId: string) => get<T.Balance>(`/admin/partners/${seg(partnerId)}/balance`),
    creditBalance: (partnerId: string, amountUsd: string, reference: string, idempotencyKey: string) =>
      send<T.Balance>(
        "POST",
        `/admin/partners/${seg(partnerId)}/balance/credits`,
        { amount_usd: amountUsd, reference },
        { "X-Idempotency-Key": idempotencyKey },
      ),
    listBalanceEntries: (partnerId: string, query: Query = {}) =>
      get<T.BalanceEntryList>(`/admin/partners/${seg(partnerId)}/balance/entries`, query),

    // Transactions
    overview: () => get<T.Overview>("/admin/overview"),
    searchTransactions: (query: Query) => get<T.TransactionList>("/admin/transactions", query),
    getTransaction: (txId: string) => get<T.TransactionDetail>(`/admin/transactions/${seg(txId)}`),
    refund: (txId: string, reason: string) =>
      send<T.TransactionSummary>("POST", `/admin/transactions/${seg(txId)}/refund`, { reason }),
    settle: (txId: string, outcome: "SUCCESS" | "FAILED", reason: string) =>
      send<T.SettleResult>("POST", `/admin/sandbox/transactions/${seg(txId)}/settle`, { outcome, reason }),

    // Webhooks
    listDeliveries: (query: Query) => get<T.DeliveryList>("/admin/webhook-deliveries", query),
    redeliver: (deliveryId: string) =>
      send<T.Delivery>("POST", `/admin/webhook-deliveries/${seg(deliveryId)}/redeliver`),
    listWebhookConfigs: (query: Query = {}) => get<T.WebhookConfigList>("/admin/webhook-configs", query),
    setWebhookConfigEnabled: (configId: string, enabled: boolean) =>
      send<T.WebhookConfig>("PATCH", `/admin/webhook-configs/${seg(configId)}`, { enabled }),
  };
}

export type AdminApi = ReturnType<typeof createAdminApi>;
