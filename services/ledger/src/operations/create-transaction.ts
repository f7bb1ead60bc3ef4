/**
 * A PENDING transaction for a destination lookup (or QR decoding) validated, optionally with the amount
 * and a first quote when the partner gave the amount at lookup. That quote is always the ledger's own,
 * asked of pricing here: nothing the caller sends sets the price a partner is later debited.
 */
import { newId } from "@payouts/platform/ids";
import type { Dec } from "@payouts/platform/money/decimal";
import { invalidField, LedgerFailure, missingField } from "../domain/ledger-failure.js";
import { type QuoteTerms, readQuoteTerms, storedDecimal } from "../domain/quote-terms.js";
import type { BindingPricer, PriceCall } from "../pricing/binding-pricer.js";
import { quoteInputOf } from "../proto/transaction-message.js";
import { Statement } from "../store/statement.js";
import { addNewTransaction, type NewTransaction, newTransactionState } from "../store/transaction-store.js";
import type { LedgerDeps } from "./ledger-deps.js";
import { addArrival, type ChangedTransaction } from "./transition.js";

/** The new transaction's own fields as the caller gives them; the ledger adds its id, times and TTL. */
export interface CreateTransactionInput
  extends Omit<NewTransaction, "txId" | "pendingExpiresAt" | "createdAt" | "amount"> {
  /** Local amount, "" when not known yet. */
  readonly amount: string;
  readonly traceparent?: string | undefined;
}

/** A transaction every check passed and pricing priced, ready to be written. */
export interface PreparedTransaction {
  readonly fresh: NewTransaction;
  readonly quote: QuoteTerms | undefined;
}

/**
 * Refusals in this order: MISSING_REQUIRED_FIELD, INVALID_FIELD (country, currency, amount), then, when
 * the caller gave an amount, pricing's (relayed as pricing gave them, or SERVICE_UNAVAILABLE). Nothing is
 * written unless every check passed.
 */
export async function createTransaction(
  deps: LedgerDeps,
  pricer: BindingPricer | undefined,
  input: CreateTransactionInput,
  call: PriceCall = {},
): Promise<ChangedTransaction> {
  const prepared = await prepareTransaction(deps, pricer, input, call);
  // The row, its first history row and its outbox event: one statement, atomic on its own.
  const st = new Statement();
  const created = addPreparedTransaction(st, prepared, input.traceparent);
  const res = await st.run<{ tx_id: string }>(deps.db, "SELECT tx_id FROM tx_new");
  if (res.rows.length !== 1 || res.rows[0]?.tx_id !== prepared.fresh.txId) {
    throw new Error(`createTransaction ${prepared.fresh.txId}: the INSERT answered ${res.rows.length} rows`);
  }
  deps.committed();
  // The answer is the row as written (newTransactionState mirrors the INSERT), not a read of it back.
  return created;
}

/** The checks and the price of createTransaction, writing nothing (a batch item is validated this way too). */
export async function prepareTransaction(
  deps: LedgerDeps,
  pricer: BindingPricer | undefined,
  input: CreateTransactionInput,
  call: PriceCall = {},
): Promise<PreparedTransaction> {
  if (!input.partnerId) throw missingField("partner_id");
  if (!/^[A-Z]{2}$/.test(input.countryCode))
    throw invalidField("destination.country_code", "must be ISO alpha-2");
  if (!/^[A-Z]{3}$/.test(input.currency)) throw invalidField("destination.currency", "must be ISO 4217");
  const amount = readAmount(input);
  const quote = amount && input.amount !== "" ? await priceOf(pricer, input, amount, call) : undefined;
  const now = deps.now();
  const fresh: NewTransaction = {
    txId: newId("tx"),
    partnerId: input.partnerId,
    customerId: input.customerId,
    countryCode: input.countryCode,
    currency: input.currency,
    destination: input.destination,
    amount,
    partnerTransactionId: input.partnerTransactionId,
    partnerAppId: input.partnerAppId,
    walletIdentifier: input.walletIdentifier,
    pendingExpiresAt: new Date(now.getTime() + deps.config.pendingTtlMs),
    createdAt: now,
    batchItem: input.batchItem,
  };
  return { fresh, quote };
}

/**
 * The INSERT of a prepared transaction with its first history row and outbox event, as parts of `st` (the
 * row's part is `tx_new`). Returns the transaction as the statement writes it.
 */
export function addPreparedTransaction(
  st: Statement,
  prepared: PreparedTransaction,
  traceparent?: string,
): ChangedTransaction {
  addNewTransaction(st, prepared.fresh, prepared.quote, "tx_new");
  const state = newTransactionState(prepared.fresh, prepared.quote);
  const created = addArrival(st, state, undefined, "created", prepared.fresh.createdAt, traceparent);
  return { tx: state, history: [created] };
}

/** Pricing's quote for the amount the caller gave, checked as QuoteTransaction checks the quotes it stores. */
async function priceOf(
  pricer: BindingPricer | undefined,
  input: CreateTransactionInput,
  amount: Dec,
  call: PriceCall,
): Promise<QuoteTerms> {
  if (!pricer) {
    throw new LedgerFailure("SERVICE_UNAVAILABLE", "no pricing service is configured to price this amount");
  }
  const quote = await pricer.price(
    {
      partnerId: input.partnerId,
      countryCode: input.countryCode,
      currency: input.currency,
      amount: input.amount,
    },
    call,
  );
  const terms = readQuoteTerms(quoteInputOf(quote), input.currency);
  if (!terms.amount.eq(amount)) throw new Error(`pricing priced ${quote.amount}, not ${input.amount}`);
  return terms;
}

// The amount given at lookup, or else the one a dynamic QR fixes.
function readAmount(input: CreateTransactionInput): Dec | undefined {
  if (input.amount !== "") return storedDecimal(input.amount, "amount", "positive");
  const fixed = fixedAmountOf(input.destination);
  return fixed === "" ? undefined : storedDecimal(fixed, "destination.amount", "positive");
}

/** The local amount a destination itself carries (dynamic QR), "" when none. */
export function fixedAmountOf(destination: Record<string, unknown>): string {
  const amount = destination.amount;
  return typeof amount === "string" ? amount : "";
}
