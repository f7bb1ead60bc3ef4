/**
 * The admin API's shapes as the console uses them, all taken from the single API definition through
 * @payouts/client/admin (generated from adminOpenApiDocument()). Decimal amounts are strings at full
 * precision; times are ISO 8601 strings.
 */
import type { AdminComponents, AdminOperations } from "@payouts/client/admin";

type S = AdminComponents["schemas"];
type QueryOf<Op extends keyof AdminOperations> = NonNullable<AdminOperations[Op]["parameters"]["query"]>;

export type FxRate = S["FxRate"];
export type FxRateList = S["FxRateList"];
export type Corridor = S["Corridor"];
export type CorridorInput = S["CorridorRequest"];
export type Partner = S["Partner"];
export type PartnerInput = S["PartnerCreateRequest"];
export type PartnerUpdate = S["PartnerUpdateRequest"];
export type PartnerList = S["PartnerPage"];
export type App = S["AdminApp"];
export type AppList = S["AdminAppList"];
export type AppSettings = S["AppSettings"];
export type CreatedApp = S["CreatedApp"];
export type Balance = S["PartnerBalance"];
export type BalanceEntryList = S["BalanceHistory"];
export type BalanceEntry = S["BalanceEntry"];
export type Overview = S["Overview"];
export type PayoutWindow = Overview["payouts"]["last_hour"];
export type TransactionList = S["TransactionSearchPage"];
export type TransactionSummary = S["TransactionSummary"];
export type TransactionDetail = S["TransactionDetail"];
export type TransactionResult = S["AdminTransaction"];
export type SettleResult = S["SettleResult"];
export type Delivery = S["WebhookDelivery"];
export type DeliveryAttempt = Delivery["attempts"][number];
export type DeliveryList = S["DeliveryPage"];
export type WebhookConfig = S["AdminWebhookConfig"];
export type WebhookConfigList = S["AdminWebhookConfigPage"];
export type ReceiverHealth = S["WebhookReceiverHealth"];
export type ReceiverHealthList = S["WebhookReceiverHealthPage"];

export type ReconciliationRun = S["ReconciliationRun"];
export type ReconciliationRunList = S["ReconciliationRunPage"];
export type ReconciliationBreak = S["ReconciliationBreak"];
export type ReconciliationBreakList = S["ReconciliationBreakPage"];

export type Batch = S["Batch"];
export type BatchList = S["BatchList"];
export type BatchItem = S["BatchItem"];
export type BatchItemList = S["BatchItemList"];
export type AuditRecord = S["AuditRecord"];
export type AuditPage = S["AuditPage"];
export type AuditVerification = S["AuditVerification"];

export type PartnerQuery = QueryOf<"listPartners">;
export type AuditQuery = QueryOf<"searchAuditRecords">;
export type AuditExportQuery = QueryOf<"exportAuditRecords">;
export type TransactionQuery = QueryOf<"searchTransactions">;
export type DeliveryQuery = QueryOf<"searchWebhookDeliveries">;
export type WebhookConfigQuery = QueryOf<"searchWebhookConfigs">;
export type ReceiverHealthQuery = QueryOf<"listWebhookReceiverHealth">;
export type BalanceEntryQuery = QueryOf<"listBalanceEntries">;
export type ReconciliationRunQuery = QueryOf<"listReconciliationRuns">;
export type ReconciliationBreakQuery = QueryOf<"listReconciliationBreaks">;
export type BatchQuery = QueryOf<"adminListBatches">;
export type BatchItemQuery = QueryOf<"adminListBatchItems">;
export type ApprovalRequest = S["ApprovalRequest"];
export type ApprovalList = S["ApprovalList"];
export type ApprovalStatus = ApprovalRequest["status"];
