/**
 * Which service-to-service caller may call which RPC: the one table of the caller rules. A method that is
 * not listed here is refused to every caller (PermissionDenied), so a new RPC is closed until someone
 * decides who may call it. `grpc.health.v1.Health` is not listed: it stays open for probes and operators.
 *
 * Callers are identities, not processes: the gateway holds three, one per listener or route family, so a
 * bug on the partner side cannot credit a balance and the rail callback route can do nothing but record
 * rail results.
 */

/** Every caller identity a credential can be issued to. */
export const SERVICE_CALLERS = ["gateway", "gateway-admin", "gateway-rail", "ledger"] as const;
export type ServiceCaller = (typeof SERVICE_CALLERS)[number];

/** What each identity stands for (README and `service-credentials` output). */
export const CALLER_ROLES: Readonly<Record<ServiceCaller, string>> = {
  gateway: "the gateway's partner API (every partner-facing RPC, always with the partner's id)",
  "gateway-admin": "the gateway's admin API and the embedded sandbox seeding (operator RPCs)",
  "gateway-rail": "the gateway's POST /callbacks/rail route, after the rail's signature was checked",
  ledger:
    "the ledger submitting accepted payouts to the rail, reading its settlement records, asking pricing for getQuotation's binding quote, and resolving bulk payout items' destinations with lookup",
};

/** The identities each process acts as: its SERVICE_PRIVATE_KEYS hold one key per identity listed. */
export const PROCESS_CALLERS = {
  gateway: ["gateway", "gateway-admin", "gateway-rail"],
  ledger: ["ledger"],
} as const satisfies Readonly<Record<string, readonly ServiceCaller[]>>;
export type CallingProcess = keyof typeof PROCESS_CALLERS;

/** Callers that may read across partners (an empty partner_id on a read that allows it). */
export const OPERATOR_CALLERS: readonly ServiceCaller[] = ["gateway-admin"];

const PARTNER: readonly ServiceCaller[] = ["gateway"];
const ADMIN: readonly ServiceCaller[] = ["gateway-admin"];

/** "<fully-qualified service>/<Method>" → the callers allowed. */
export const CALLER_ALLOWLIST: Readonly<Record<string, readonly ServiceCaller[]>> = {
  // The ledger validates each item of a bulk payout batch by lookupPaymentCode's rules.
  "payouts.lookup.v1.LookupService/ResolveDestination": ["gateway", "ledger"],
  "payouts.lookup.v1.LookupService/DecodeQr": PARTNER,
  "payouts.lookup.v1.LookupService/ListBanks": PARTNER,
  "payouts.lookup.v1.LookupService/CreateCustomer": PARTNER,
  "payouts.lookup.v1.LookupService/GetCustomer": PARTNER,

  "payouts.pricing.v1.PricingService/PreviewQuotations": PARTNER,
  // Only the ledger asks for a binding price: it stores every quote it later debits (CreateTransaction with
  // an amount, QuoteTransaction).
  "payouts.pricing.v1.PricingService/CreateQuote": ["ledger"],
  "payouts.pricing.v1.PricingService/PutPartnerPricing": ADMIN,
  "payouts.pricing.v1.PricingService/GetPartnerPricing": ADMIN,
  "payouts.pricing.v1.PricingService/PutFxRate": ADMIN,
  "payouts.pricing.v1.PricingService/DeleteFxRate": ADMIN,
  "payouts.pricing.v1.PricingService/ListFxRates": ADMIN,
  "payouts.pricing.v1.PricingService/PutCorridor": ADMIN,
  "payouts.pricing.v1.PricingService/ListCorridors": ADMIN,

  "payouts.ledger.v1.LedgerService/CreateTransaction": PARTNER,
  "payouts.ledger.v1.LedgerService/GetTransaction": ["gateway", "gateway-admin"],
  "payouts.ledger.v1.LedgerService/ListTransactions": PARTNER,
  "payouts.ledger.v1.LedgerService/QuoteTransaction": PARTNER,
  "payouts.ledger.v1.LedgerService/ExecutePayout": PARTNER,
  "payouts.ledger.v1.LedgerService/RecordRailResult": ["gateway-rail"],
  "payouts.ledger.v1.LedgerService/RefundTransaction": ADMIN,
  "payouts.ledger.v1.LedgerService/CreditBalance": ADMIN,
  "payouts.ledger.v1.LedgerService/GetBalance": ["gateway", "gateway-admin"],
  "payouts.ledger.v1.LedgerService/ListStatementLines": PARTNER,
  "payouts.ledger.v1.LedgerService/ListDayTransactions": PARTNER,
  "payouts.ledger.v1.LedgerService/FailTransaction": ADMIN,

  // Daily statements: partners read their own days; operators set the time zone and correct closed days.
  "payouts.ledger.v1.StatementService/GetStatementSettings": ADMIN,
  "payouts.ledger.v1.StatementService/SetStatementSettings": ADMIN,
  "payouts.ledger.v1.StatementService/CorrectStatementDay": ADMIN,
  "payouts.ledger.v1.StatementService/GetDailyStatement": PARTNER,
  "payouts.ledger.v1.StatementService/ListDailyStatementLines": PARTNER,
  "payouts.ledger.v1.StatementService/ListDailyStatements": PARTNER,

  // Operators' reads across partners (the admin API's console routes).
  "payouts.ledger.v1.LedgerAdminService/SearchTransactions": ADMIN,
  "payouts.ledger.v1.LedgerAdminService/ListTransactionMovements": ADMIN,
  "payouts.ledger.v1.LedgerAdminService/ListBalanceEntries": ADMIN,
  "payouts.ledger.v1.LedgerAdminService/ListBalances": ADMIN,
  "payouts.ledger.v1.LedgerAdminService/GetLedgerOverview": ADMIN,

  // Bulk payouts: partners run their batches; operators read any partner's and cancel before funding.
  "payouts.ledger.v1.BatchService/CreateBatch": PARTNER,
  "payouts.ledger.v1.BatchService/GetBatch": ["gateway", "gateway-admin"],
  "payouts.ledger.v1.BatchService/ListBatches": ["gateway", "gateway-admin"],
  "payouts.ledger.v1.BatchService/ListBatchItems": ["gateway", "gateway-admin"],
  "payouts.ledger.v1.BatchService/PutBatchItems": PARTNER,
  "payouts.ledger.v1.BatchService/RemoveBatchItems": PARTNER,
  "payouts.ledger.v1.BatchService/ApproveBatch": PARTNER,
  "payouts.ledger.v1.BatchService/CancelBatch": ["gateway", "gateway-admin"],
  "payouts.ledger.v1.BatchService/RetryFailedItems": PARTNER,

  // Reconciliation against the rail (the admin API's reconciliation routes).
  "payouts.ledger.v1.ReconciliationService/StartReconciliationRun": ADMIN,
  "payouts.ledger.v1.ReconciliationService/ListReconciliationRuns": ADMIN,
  "payouts.ledger.v1.ReconciliationService/ListReconciliationBreaks": ADMIN,
  "payouts.ledger.v1.ReconciliationService/ResolveReconciliationBreak": ADMIN,

  "payouts.webhooks.v1.WebhookService/CreateConfig": PARTNER,
  "payouts.webhooks.v1.WebhookService/ListConfigs": PARTNER,
  "payouts.webhooks.v1.WebhookService/UpdateConfig": PARTNER,
  "payouts.webhooks.v1.WebhookService/DeleteConfig": PARTNER,
  "payouts.webhooks.v1.WebhookService/RotateSecret": PARTNER,
  "payouts.webhooks.v1.WebhookService/TestConfig": PARTNER,
  "payouts.webhooks.v1.WebhookService/ListDeliveries": PARTNER,
  "payouts.webhooks.v1.WebhookService/Redeliver": PARTNER,

  "payouts.webhooks.v1.WebhookAdminService/SearchDeliveries": ADMIN,
  "payouts.webhooks.v1.WebhookAdminService/GetDeliveryStats": ADMIN,
  "payouts.webhooks.v1.WebhookAdminService/RedeliverDelivery": ADMIN,
  "payouts.webhooks.v1.WebhookAdminService/SearchConfigs": ADMIN,
  "payouts.webhooks.v1.WebhookAdminService/SetConfigActive": ADMIN,
  "payouts.webhooks.v1.WebhookAdminService/ListReceiverHealth": ADMIN,
  "payouts.webhooks.v1.WebhookAdminService/PauseReceiver": ADMIN,
  "payouts.webhooks.v1.WebhookAdminService/ResumeReceiver": ADMIN,

  "payouts.rail.v1.RailService/SubmitPayout": ["ledger"],
  "payouts.rail.v1.RailService/SettlePayout": ADMIN,
  "payouts.rail.v1.RailService/CancelPayout": ["ledger"],
  // The ledger's reconciliation reads the rail's records; only operators plant sandbox discrepancies.
  "payouts.rail.v1.RailService/ListSettlementRecords": ["ledger"],
  "payouts.rail.v1.RailService/InjectSettlementDiscrepancy": ADMIN,
};

/** RPCs anyone may call, without a credential. */
export const OPEN_SERVICES: readonly string[] = ["grpc.health.v1.Health"];

export function isServiceCaller(name: string): name is ServiceCaller {
  return (SERVICE_CALLERS as readonly string[]).includes(name);
}

/** The callers the allowlist names on some RPC of `payouts.<service>.*` (e.g. "ledger"): whom it accepts. */
export function callersOfService(service: string): ServiceCaller[] {
  const prefix = `payouts.${service}.`;
  const rules = Object.entries(CALLER_ALLOWLIST).filter(([procedure]) => procedure.startsWith(prefix));
  return SERVICE_CALLERS.filter((caller) => rules.some(([, callers]) => callers.includes(caller)));
}
