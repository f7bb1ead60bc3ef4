/**
 * Shapes of the admin API as the console reads them. Decimal amounts are strings at full precision;
 * times are ISO 8601 strings.
 */
export interface FxRate {
  currency: string;
  rate_per_usd: string;
  updated_at: string | null;
}
export interface FxRateList {
  fx_rates: FxRate[];
}
export interface CorridorInput {
  currency: string;
  min_amount: string;
  max_amount: string;
  enabled: boolean;
}
export interface Corridor extends CorridorInput {
  country_code: string;
}
export interface CorridorList {
  corridors: Corridor[];
}

export interface Fees {
  percent: string;
  fixed_usd: string;
}
export interface PartnerInput {
  name: string;
  supported_currencies: string[];
  fees: Fees;
}
export interface Partner extends PartnerInput {
  partner_id: string;
  created_at: string;
  updated_at: string;
}
export interface AppSecret {
  secret_id: string;
  created_at: string;
  revoked_at: string | null;
}
export interface App {
  client_id: string;
  partner_id: string;
  preview_rate_limit_per_minute: number;
  created_at: string;
  revoked_at: string | null;
  secrets?: AppSecret[];
}
export interface PartnerDetail extends Partner {
  apps?: App[];
  balance_usd?: string;
}
export interface PartnerList {
  partners: (Partner & { balance_usd?: string })[];
  next_cursor?: string | null;
}
export interface CreatedApp {
  client_id: string;
  client_secret: string;
  secret_id: string;
  partner_id: string;
  preview_rate_limit_per_minute: number;
  created_at: string;
}
export interface Balance {
  partner_id: string;
  balance_usd: string;
}
export interface BalanceEntry {
  entry_id?: string;
  kind: string;
  amount_usd: string;
  balance_usd?: string;
  reference?: string | null;
  tx_id?: string | null;
  created_at: string;
}
export interface BalanceEntryList {
  entries: BalanceEntry[];
  next_cursor?: string | null;
}

export interface TransactionSummary {
  tx_id: string;
  partner_id: string;
  partner_transaction_id?: string | null;
  status: string;
  country?: string;
  amount: string | number;
  currency: string;
  amount_usd?: string | null;
  fee?: string | null;
  total_usd?: string | null;
  refund_reason?: string;
  failure_reason?: string;
  created_at?: string;
  updated_at: string;
}
export interface TransactionList {
  transactions: TransactionSummary[];
  next_cursor?: string | null;
}
export interface StatusChange {
  status: string;
  at: string;
  reason?: string | null;
}
export interface LedgerEntry {
  entry_id?: string;
  account: string;
  amount_usd: string;
  kind?: string;
  created_at: string;
}
export interface DeliveryAttempt {
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number | null;
  error?: string | null;
}
export interface Delivery {
  delivery_id: string;
  config_id: string;
  partner_id: string;
  tx_id?: string | null;
  event: string;
  url?: string;
  status: string;
  attempts: number | DeliveryAttempt[];
  last_status_code?: number | null;
  next_attempt_at?: string | null;
  created_at: string;
  updated_at?: string;
}
export interface DeliveryList {
  deliveries: Delivery[];
  next_cursor?: string | null;
}
export interface TransactionDetail extends TransactionSummary {
  destination?: Record<string, unknown>;
  quote?: Record<string, unknown> | null;
  ledger_entries?: LedgerEntry[];
  status_history?: StatusChange[];
  webhook_deliveries?: (Delivery & { attempts: DeliveryAttempt[] })[];
}
export interface SettleResult {
  tx_id: string;
  outcome: string;
  delivered: boolean;
  status: string | null;
}
export interface WebhookConfig {
  config_id: string;
  partner_id: string;
  url: string;
  events?: string[];
  enabled: boolean;
  created_at?: string;
}
export interface WebhookConfigList {
  webhook_configs: WebhookConfig[];
}
export interface PayoutCount {
  country: string;
  status: string;
  count: number;
  total_usd: string;
}
export interface Overview {
  payouts: { last_hour: PayoutCount[]; last_day: PayoutCount[] };
  partner_balances_usd: string;
  outbox: { unpublished: number; oldest_unpublished_age_seconds: number | null };
  webhook_deliveries: { pending: number; delivered: number; dead: number };
}
