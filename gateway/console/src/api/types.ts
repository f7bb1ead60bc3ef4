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
export type PartnerDetail = Partner;
export interface PartnerSummary {
  partner_id: string;
  name: string;
  active_apps: number;
  balance_usd: string;
  in_flight_usd: string;
  created_at: string;
  updated_at: string;
}
export interface PartnerList {
  partners: PartnerSummary[];
  next_cursor: string | null;
}
export interface AppList {
  apps: App[];
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
  entry_id: string;
  kind: "credit" | "payout" | "reversal" | "refund" | string;
  tx_id: string | null;
  reference: string | null;
  amount_usd: string;
  balance_after_usd: string;
  created_at: string;
}
export interface BalanceEntryList {
  partner_id: string;
  balance_usd: string;
  entries: BalanceEntry[];
  next_cursor: string | null;
}

export interface TransactionSummary {
  tx_id: string;
  partner_id: string;
  partner_transaction_id: string;
  status: string;
  country: string;
  currency: string;
  amount: string | null;
  amount_usd: string | null;
  fee: string | null;
  total_usd: string | null;
  payment_method: string;
  destination_type: string;
  created_at: string;
  updated_at: string;
}
export interface TransactionList {
  transactions: TransactionSummary[];
  next_cursor: string | null;
}
export interface StatusChange {
  from: string | null;
  to: string;
  reason: string;
  at: string;
}
export interface MovementLine {
  account: string;
  amount_usd: string;
}
export interface LedgerMovement {
  movement_id: string;
  kind: string;
  reference: string;
  created_at: string;
  lines: MovementLine[];
}
export interface DeliveryAttempt {
  attempt: number;
  status_code: number | null;
  duration_ms: number | null;
  error: string | null;
  attempted_at: string;
}
export interface Delivery {
  delivery_id: string;
  partner_id: string;
  config_id: string;
  event_id: string;
  event_type: string;
  tx_id: string | null;
  status: "pending" | "delivering" | "delivered" | "dead" | string;
  attempt_count: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  response_body: string | null;
  created_at: string;
  attempts: DeliveryAttempt[];
}
export interface DeliveryList {
  deliveries: Delivery[];
  next_cursor: string | null;
}
export interface TransactionDetail extends TransactionSummary {
  customer_id: string;
  client_id: string;
  destination: Record<string, unknown> | null;
  quote: Record<string, unknown> | null;
  provider_reference: string;
  refund_reason: string;
  failure_reason: string;
  status_history: StatusChange[];
  ledger_movements: LedgerMovement[];
  webhook_deliveries: Delivery[];
}
export interface TransactionResult {
  tx_id: string;
  partner_id: string;
  status: string;
  total_usd: string | null;
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
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  pending_deliveries: number;
  dead_deliveries: number;
  created_at: string;
  updated_at: string;
}
export interface WebhookConfigList {
  webhook_configs: WebhookConfig[];
  next_cursor: string | null;
}
export interface CorridorCount {
  country: string;
  currency: string;
  status: string;
  count: number;
  amount: string;
  debited_usd: string;
}
export interface PayoutWindow {
  since: string;
  total: number;
  by_corridor: CorridorCount[];
}
export interface Overview {
  as_of: string;
  payouts: { last_hour: PayoutWindow; last_day: PayoutWindow };
  balances: { total_usd: string; in_flight_usd: string; partners: number };
  outbox: { unpublished: number; oldest_age_ms: number };
  webhooks: {
    pending: number;
    retrying: number;
    delivering: number;
    dead: number;
    delivered_last_hour: number;
    delivered_last_day: number;
    pending_disabled: number;
    oldest_due_age_ms: number;
  };
}
