/**
 * What each partner endpoint may cost per request, counted by the anatomy harness (anatomy.ts): calls
 * between services by method, SQL statements, database round trips and transactions, and outbox (Kafka)
 * messages. The budgets are exact, in the spirit of Django's assertNumQueries: a change that adds an RPC or
 * a round trip fails anatomy.test.ts with a diff, and one that removes some must lower the budget here, so
 * the table keeps telling the truth. `npm run anatomy` prints the measured table (docs/performance.md).
 */
import type { AnatomyEndpoint } from "./anatomy.js";

export interface CostBudget {
  readonly rpcs: Readonly<Record<string, number>>;
  readonly sqlStatements: number;
  /** The statements by sender: a service role or "gateway". */
  readonly sqlBy: Readonly<Record<string, number>>;
  readonly roundTrips: number;
  readonly transactions: number;
  /** Outbox rows written plus messages published directly. */
  readonly messages: number;
}

export const COST_BUDGETS: Readonly<Record<AnatomyEndpoint, CostBudget>> = {
  previewQuotations: {
    rpcs: { "PricingService/PreviewQuotations": 1 },
    sqlStatements: 0,
    sqlBy: {},
    roundTrips: 0,
    transactions: 0,
    messages: 0,
  },
  lookupPaymentCode: {
    rpcs: { "LedgerService/CreateTransaction": 1, "LookupService/ResolveDestination": 1 },
    sqlStatements: 2,
    sqlBy: { ledger: 1, lookup: 1 },
    roundTrips: 2,
    transactions: 0,
    messages: 1,
  },
  getQuotation: {
    rpcs: { "LedgerService/QuoteTransaction": 1, "PricingService/CreateQuote": 1 },
    sqlStatements: 3,
    sqlBy: { ledger: 2, pricing: 1 },
    roundTrips: 3,
    transactions: 0,
    messages: 0,
  },
  executePayout: {
    rpcs: { "LedgerService/ExecutePayout": 1, "RailService/SubmitPayout": 1 },
    sqlStatements: 5,
    sqlBy: { ledger: 4, "sandbox-rail": 1 },
    roundTrips: 7,
    transactions: 1,
    messages: 1,
  },
  executePayoutReplay: {
    rpcs: { "LedgerService/ExecutePayout": 1 },
    sqlStatements: 2,
    sqlBy: { ledger: 2 },
    roundTrips: 4,
    transactions: 1,
    messages: 0,
  },
  railCallback: {
    rpcs: { "LedgerService/RecordRailResult": 1 },
    sqlStatements: 2,
    sqlBy: { ledger: 2 },
    roundTrips: 4,
    transactions: 1,
    messages: 1,
  },
  listTransactions: {
    rpcs: { "LedgerService/ListTransactions": 1 },
    sqlStatements: 1,
    sqlBy: { ledger: 1 },
    roundTrips: 1,
    transactions: 0,
    messages: 0,
  },
  getTransaction: {
    rpcs: { "LedgerService/GetTransaction": 1 },
    sqlStatements: 1,
    sqlBy: { ledger: 1 },
    roundTrips: 1,
    transactions: 0,
    messages: 0,
  },
  getBalance: {
    rpcs: { "LedgerService/GetBalance": 1 },
    sqlStatements: 1,
    sqlBy: { ledger: 1 },
    roundTrips: 1,
    transactions: 0,
    messages: 0,
  },
  listBalanceEntries: {
    rpcs: { "LedgerService/ListStatementLines": 1 },
    sqlStatements: 1,
    sqlBy: { ledger: 1 },
    roundTrips: 1,
    transactions: 0,
    messages: 0,
  },
};
