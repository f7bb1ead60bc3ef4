/**
 * The ledger service alone on a fresh real PostgreSQL database, called through its Connect router, with
 * scriptable stand-ins for the payout rail and for pricing, and the in-process bus recording what the relay
 * publishes.
 */
import { createHash, randomUUID } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Client, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { createLedgerService, LEDGER_MIGRATIONS } from "@payouts/ledger/ledger-service";
import type { Database } from "@payouts/platform/database/database";
import { migrate } from "@payouts/platform/database/migrate";
import { createPgDatabase } from "@payouts/platform/database/pg-database";
import { type EventMessage, TRANSACTION_EVENTS_TOPIC } from "@payouts/platform/events/event-bus";
import { createInProcessEventBus } from "@payouts/platform/events/in-process-event-bus";
import { createLogger } from "@payouts/platform/logging/logger";
import { Dec } from "@payouts/platform/money/decimal";
import { errorDetailOf, serviceError } from "@payouts/platform/rpc/service-error";
import type { ServiceModule } from "@payouts/platform/service-module";
import { DestinationSchema, type Quote, QuoteSchema } from "@payouts/proto/payouts/common/v1/common_pb";
import { LedgerService, type QuoteTransactionResponse } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { type CreateQuoteRequest, PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import { RailService, type SubmitPayoutRequest } from "@payouts/proto/payouts/rail/v1/rail_pb";
import { createTestDatabase } from "../../support/infra.js";

export type LedgerClient = Client<typeof LedgerService>;

export interface LedgerHarness {
  readonly db: Database;
  readonly url: string;
  readonly client: LedgerClient;
  readonly module: ServiceModule;
  readonly published: EventMessage[];
  readonly submissions: SubmitPayoutRequest[];
  /** tx_id of every CancelPayout call, in order. */
  readonly cancellations: string[];
  /** Makes the next `n` SubmitPayout calls fail before the rail takes the payout. */
  failNextSubmissions(n: number): void;
  /** The next `n` SubmitPayout calls reach the rail, which takes the payout, but the answer is lost. */
  loseNextSubmissionAnswers(n: number): void;
  /** Makes the next `n` CancelPayout calls fail (the rail does not answer). */
  failNextCancellations(n: number): void;
  /** Every CreateQuote the ledger asked the pricing stand-in, in order. */
  readonly pricingRequests: CreateQuoteRequest[];
  /**
   * From now on the pricing stand-in answers `quote` to CreateQuote of `partnerId` for `quote.amount` (the
   * latest offer for an amount wins); an amount it was never offered is refused AMOUNT_OUT_OF_RANGE, as
   * pricing refuses an amount off its limits.
   */
  offerQuote(partnerId: string, quote: Quote): void;
  /** getQuotation through the ledger (QuoteTransaction), pricing answering `quote`. */
  quoteWith(request: {
    partnerId: string;
    txId: string;
    quote: Quote;
    currency?: string;
  }): Promise<QuoteTransactionResponse>;
  /** Makes the next `n` CreateQuote calls fail (pricing does not answer). */
  failNextPricing(n: number): void;
  /** A second ledger process on the same database (stopping the first is up to the test). */
  restart(): Promise<{ client: LedgerClient; module: ServiceModule }>;
  close(): Promise<void>;
}

export const FAST_ENV = {
  OUTBOX_POLL_MS: "50",
  RAIL_RETRY_INTERVAL_MS: "100",
  LEDGER_EXPIRY_SWEEP_MS: "100",
};

export async function startLedgerHarness(
  env: Record<string, string> = {},
  options: { readonly now?: () => Date } = {},
): Promise<LedgerHarness> {
  const database = await createTestDatabase();
  const db = createPgDatabase({ connectionString: database.url, maxConnections: 20 });
  await migrate(db, LEDGER_MIGRATIONS);
  const bus = createInProcessEventBus();
  const published: EventMessage[] = [];
  await bus.subscribe({
    topic: TRANSACTION_EVENTS_TOPIC,
    groupId: "harness",
    handler: async (m) => void published.push(m),
  });
  const submissions: SubmitPayoutRequest[] = [];
  const cancellations: string[] = [];
  // The stand-in keeps a rail's one promise the ledger relies on: per tx_id, "taken" and "cancelled"
  // exclude each other, whichever came first.
  const taken = new Set<string>();
  const cancelled = new Set<string>();
  let failures = 0;
  let lostAnswers = 0;
  let cancelFailures = 0;
  const rail = createRouterTransport((router) =>
    router.service(RailService, {
      async submitPayout(req) {
        submissions.push(req);
        if (failures > 0) {
          failures--;
          throw new ConnectError("rail unavailable", 14);
        }
        if (cancelled.has(req.txId)) return { providerReference: "", accepted: false };
        taken.add(req.txId);
        if (lostAnswers > 0) {
          lostAnswers--;
          throw new ConnectError("deadline exceeded", 4);
        }
        return { providerReference: `prv_${req.txId}`, accepted: true };
      },
      async cancelPayout(req) {
        cancellations.push(req.txId);
        if (cancelFailures > 0) {
          cancelFailures--;
          throw new ConnectError("rail unavailable", 14);
        }
        if (taken.has(req.txId)) return { cancelled: false, providerReference: `prv_${req.txId}` };
        cancelled.add(req.txId);
        return { cancelled: true, providerReference: "" };
      },
      async settlePayout() {
        return { delivered: false };
      },
    }),
  );
  const pricingRequests: CreateQuoteRequest[] = [];
  const offered = new Map<string, Quote>();
  const offerKey = (partnerId: string, amount: string) => `${partnerId} ${amount}`;
  let pricingFailures = 0;
  const pricing = createRouterTransport((router) =>
    router.service(PricingService, {
      async createQuote(req) {
        pricingRequests.push(req);
        if (pricingFailures > 0) {
          pricingFailures--;
          throw new ConnectError("pricing unavailable", 14);
        }
        const key = offerKey(req.partnerId, req.amount);
        const offer = offered.get(key);
        if (!offer) {
          throw serviceError<"AMOUNT_OUT_OF_RANGE">(
            "AMOUNT_OUT_OF_RANGE",
            `no price for ${req.amount} ${req.currency}`,
            {
              field: "amount",
            },
          );
        }
        return { quote: offer };
      },
    }),
  );
  const offerQuote = (partnerId: string, q: Quote) => void offered.set(offerKey(partnerId, q.amount), q);
  const modules: ServiceModule[] = [];
  const spawn = async () => {
    const module = createLedgerService({
      db,
      bus,
      logger: createLogger({ service: "ledger-test", level: "silent" }),
      transports: { rail, pricing },
      env: { ...FAST_ENV, ...env },
      mode: "distributed",
      ...(options.now ? { now: options.now } : {}),
    });
    await module.start();
    modules.push(module);
    return {
      module,
      client: createClient(
        LedgerService,
        createRouterTransport((r) => module.routes(r)),
      ),
    };
  };
  const first = await spawn();
  return {
    pricingRequests,
    offerQuote,
    quoteWith: ({ partnerId, txId, quote: q, currency = "" }) => {
      offerQuote(partnerId, q);
      return first.client.quoteTransaction({ partnerId, txId, currency, amount: q.amount });
    },
    failNextPricing: (n) => {
      pricingFailures = n;
    },
    db,
    url: database.url,
    ...first,
    published,
    submissions,
    cancellations,
    failNextSubmissions: (n) => {
      failures = n;
    },
    loseNextSubmissionAnswers: (n) => {
      lostAnswers = n;
    },
    failNextCancellations: (n) => {
      cancelFailures = n;
    },
    restart: spawn,
    async close() {
      for (const m of modules) await m.stop();
      await bus.close();
      await db.close();
      await database.drop();
    },
  };
}

/** A Destination as lookup would hand it over. */
export function destination(country = "NG", currency = "NGN", paymentDestination = "0123456789") {
  return create(DestinationSchema, {
    countryCode: country,
    currency,
    paymentMethod: "bank_transfer",
    destinationType: "NUBAN",
    paymentDestination,
    paymentDestinationCode: "058",
    institutionName: "Test Bank",
    recipient: { account_no: paymentDestination, bank_code: "058", name_first: "Ada", name_last: "Obi" },
    sender: { name_first: "Sam", name_last: "Sender", country: "US" },
    source: "lookup",
  });
}

/** A binding quote for `amountUsd` with the given fees, valid for `ttlMs`. */
export function quote(
  amountUsd: string,
  percentageFee = "0",
  fixedFee = "0",
  opts: { currency?: string; rate?: string; ttlMs?: number } = {},
): Quote {
  const rate = new Dec(opts.rate ?? "1500");
  const fee = new Dec(percentageFee).plus(fixedFee);
  return create(QuoteSchema, {
    quoteId: `qt_${Math.random().toString(36).slice(2)}`,
    amount: new Dec(amountUsd).times(rate).toFixed(),
    currency: opts.currency ?? "NGN",
    exchangeRate: rate.toFixed(),
    amountUsd,
    percentageFee,
    fixedFee,
    fee: fee.toFixed(),
    totalUsd: fee.plus(amountUsd).toFixed(),
    expiresAt: timestampFromDate(new Date(Date.now() + (opts.ttlMs ?? 30 * 60_000))),
  });
}

/** A fresh idempotency key and fingerprint, for CreditBalance calls that are not about idempotency. */
export function freshKey(): { idempotencyKey: string; requestFingerprint: string } {
  const idempotencyKey = `key-${randomUUID()}`;
  return { idempotencyKey, requestFingerprint: createHash("sha256").update(idempotencyKey).digest("hex") };
}

/** The stable reason of a ledger error (or "OK" when the call succeeded). */
export async function reasonOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return "OK";
  } catch (error) {
    return errorDetailOf(error)?.reason ?? `UNEXPECTED ${(error as Error).message}`;
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
