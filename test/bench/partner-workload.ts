import {
  basicAuthorization,
  type ExecutePayoutRequest,
  type GetQuotationRequest,
  type LookupPaymentCodeRequest,
  type PreviewQuotationsRequest,
} from "@payouts/client";
import { type BenchTenant, LOOKUP_DESTINATION, QUOTE_AMOUNT_BRL } from "./bench-seed.js";
import type { LoadRequest } from "./load-generator.js";

/** The requests of one scenario: the next request, and what to learn from each answer. */
export interface Workload {
  readonly next: () => LoadRequest | undefined;
  readonly onAnswer?: (status: number, body: string) => void;
}

/** One in this many executePayout requests re-executes a paid transaction with a new key (intended 409). */
const REFUSAL_EVERY = 20;

/**
 * The partner API workloads of one tenant. They share state along the payout flow: lookups create the
 * PENDING transactions that getQuotation quotes, and executePayout pays each quoted one exactly once.
 *
 * The measured load is sent by autocannon, not through @payouts/client: the bench measures the platform,
 * and a fetch-based client would add its own cost and its retries would hide refusals. The requests are
 * still the client's: bodies typed by its generated types, credentials encoded by its basicAuthorization.
 */
export class PartnerWorkload {
  private readonly headers: Record<string, string>;
  private readonly lookedUp: string[] = [];
  private readonly quoted = new Set<string>();
  private quotedQueue: string[] = [];
  private readonly executed: string[] = [];
  private quoteCursor = 0;
  private executeCount = 0;

  constructor(
    private readonly tenant: BenchTenant,
    private readonly runId: string,
  ) {
    this.headers = {
      authorization: basicAuthorization(tenant.clientId, tenant.clientSecret),
      "content-type": "application/json",
    };
  }

  get transactionsCreated(): number {
    return this.lookedUp.length;
  }

  get transactionsQuoted(): number {
    return this.quoted.size;
  }

  /** The body and headers the node:http baseline receives too. */
  preview(): Workload {
    const request: LoadRequest = {
      method: "POST",
      path: "/previewQuotations",
      headers: this.headers,
      body: json<PreviewQuotationsRequest>({ amount: 100, currency: "USD" }),
    };
    return { next: () => request };
  }

  lookup(): Workload {
    const request: LoadRequest = {
      method: "POST",
      path: "/lookupPaymentCode",
      headers: this.headers,
      body: json<LookupPaymentCodeRequest>({ customer_id: this.tenant.customerId, ...LOOKUP_DESTINATION }),
    };
    return {
      next: () => request,
      onAnswer: (status, body) => {
        const txId = status === 200 ? txIdOf(body) : undefined;
        if (txId) this.lookedUp.push(txId);
      },
    };
  }

  /** Quotes the looked-up transactions in order, starting over when all are quoted. */
  quote(): Workload {
    return {
      next: () => {
        if (this.lookedUp.length === 0) return undefined;
        const txId = this.lookedUp[this.quoteCursor++ % this.lookedUp.length]!;
        return {
          method: "POST",
          path: "/getQuotation",
          headers: this.headers,
          body: json<GetQuotationRequest>({ tx_id: txId, amount: QUOTE_AMOUNT_BRL }),
        };
      },
      onAnswer: (status, body) => {
        const txId = status === 200 ? txIdOf(body) : undefined;
        if (txId && !this.quoted.has(txId)) {
          this.quoted.add(txId);
          this.quotedQueue.push(txId);
        }
      },
    };
  }

  /**
   * Pays each quoted transaction once with a fresh idempotency key. Every REFUSAL_EVERY-th request
   * instead re-executes an already paid transaction with a new key: the intended 409
   * TRANSACTION_NOT_PENDING. Ends when the quoted transactions run out.
   */
  execute(): Workload {
    return {
      next: () => {
        const n = this.executeCount++;
        const key = `bench-${this.runId}-${n}`;
        const paid = this.executed[this.executed.length - 1 - (n % Math.max(1, this.executed.length))];
        if (n % REFUSAL_EVERY === REFUSAL_EVERY - 1 && paid !== undefined) {
          return this.executeRequest(paid, key, { status: 409, code: "TRANSACTION_NOT_PENDING" });
        }
        const txId = this.quotedQueue.shift();
        return txId === undefined ? undefined : this.executeRequest(txId, key, { status: 200 });
      },
      onAnswer: (status, body) => {
        const txId = status === 200 ? txIdOf(body) : undefined;
        if (txId) this.executed.push(txId);
      },
    };
  }

  list(): Workload {
    const request: LoadRequest = { method: "GET", path: "/listTransactions?limit=20", headers: this.headers };
    return { next: () => request };
  }

  private executeRequest(txId: string, key: string, expect: LoadRequest["expect"]): LoadRequest {
    return {
      method: "POST",
      path: "/executePayout",
      headers: { ...this.headers, "x-idempotency-key": key },
      body: json<ExecutePayoutRequest>({ tx_id: txId }),
      ...(expect ? { expect } : {}),
    };
  }
}

/** The JSON text of a request body of the type the client would send. */
function json<Body>(body: Body): string {
  return JSON.stringify(body);
}

function txIdOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { tx_id?: unknown };
    return typeof parsed.tx_id === "string" ? parsed.tx_id : undefined;
  } catch {
    return undefined;
  }
}
