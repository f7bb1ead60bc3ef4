/**
 * Steady payouts the way a careful partner sends them: lookup → getQuotation → executePayout with an
 * idempotency key per transaction, every call retried on 5xx, 429, timeouts and connection errors —
 * executePayout always with the SAME key, so a retry after a lost answer replays instead of paying twice.
 * Requests go round-robin over the running gateways. Some payouts go to a sandbox destination that the
 * rail fails; some successful ones are refunded through the admin API.
 */
import { createHash } from "node:crypto";

export interface PartnerAccount {
  readonly partnerId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly customerId: string;
}

export interface DriverSettings {
  readonly workers: number;
  readonly thinkMs: number;
  /** One payout in this many goes to the failing destination. */
  readonly failEvery: number;
  /** One successful payout in this many is refunded. */
  readonly refundEvery: number;
  readonly requestTimeoutMs: number;
  /** A call still unanswered after retrying this long is given up (the audit reads the truth from the ledger). */
  readonly giveUpMs: number;
}

/** Pix keys: the rail settles the first and fails the second ("contains fail", services/sandbox-rail/README.md). */
const DESTINATION_OK = "52998224725";
const DESTINATION_FAILING = "fail.chaos@example.com";
/** 54 BRL at 5.4 BRL per USD: 10 USD plus fees. */
const AMOUNT_BRL = 54;
/** One paid payout in this many is executed again with a new key: it must be refused, not paid twice. */
const REEXECUTE_EVERY = 10;

interface Answer {
  readonly status: number;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: partner API answers are JSON of many shapes
  readonly json: any;
}

export class PayoutDriver {
  /** Partner and admin base URLs of the gateways to use, set by the runner as replicas come and go. */
  gateways: ReadonlyArray<{ readonly partnerUrl: string; readonly adminUrl: string }> = [];
  readonly stats = new Map<string, number>();
  private account: PartnerAccount | undefined;
  private running = false;
  private workers: Promise<void>[] = [];
  private roundRobin = 0;
  private payoutCount = 0;
  private readonly refundQueue: string[] = [];
  private readonly refundSeen = new Set<string>();
  private refundsInFlight = 0;
  private refunder: Promise<void> | undefined;
  private refundStop = false;
  private aborted = false;
  private readonly unexpectedShown = new Set<string>();

  constructor(
    private readonly settings: DriverSettings,
    private readonly adminToken: string,
    private readonly runId: string,
    private readonly log: (line: string) => void,
  ) {}

  /** New payouts are made for this partner from now on (payouts in flight finish for theirs). */
  usePartner(account: PartnerAccount): void {
    this.account = account;
  }

  start(): void {
    this.running = true;
    this.workers = Array.from({ length: this.settings.workers }, (_, i) => this.work(i));
    this.refunder = this.refundLoop();
  }

  /** Stops starting payouts; resolves when the ones in flight are done. Refunds keep going. */
  async stopPayouts(): Promise<void> {
    this.running = false;
    await Promise.all(this.workers);
  }

  /** Refunds a payout whose success notification arrived, if it is one of the chosen ones (once). */
  offerRefund(txId: string): void {
    if (this.refundSeen.has(txId) || !chosen(txId, this.settings.refundEvery)) return;
    this.refundSeen.add(txId);
    this.refundQueue.push(txId);
  }

  /** True when no refund waits or runs. */
  refundsIdle(): boolean {
    return this.refundQueue.length === 0 && this.refundsInFlight === 0;
  }

  /** Drops the refunds still queued and ends the refund loop once the one in flight is done. */
  async stopRefunds(): Promise<void> {
    this.refundQueue.length = 0;
    this.refundStop = true;
    await this.refunder;
  }

  /** Stops everything at once: no call is retried any more (the run is being torn down). */
  abort(): void {
    this.aborted = true;
    this.running = false;
    this.refundStop = true;
    this.refundQueue.length = 0;
  }

  private count(key: string, by = 1): void {
    this.stats.set(key, (this.stats.get(key) ?? 0) + by);
  }

  private async work(worker: number): Promise<void> {
    await sleep(worker * 37);
    while (this.running) {
      const account = this.account;
      if (account) {
        try {
          await this.payout(account);
        } catch (error) {
          this.count("driver errors");
          this.log(`worker ${worker}: ${(error as Error).stack ?? error}`);
        }
      }
      await sleep(this.settings.thinkMs);
    }
  }

  private async payout(account: PartnerAccount): Promise<void> {
    const n = ++this.payoutCount;
    const failing = n % this.settings.failEvery === 0;
    const auth = { authorization: basic(account) };
    const lookup = await this.call("lookup", "partner", "POST", "/lookupPaymentCode", auth, {
      customer_id: account.customerId,
      country_code: "BR",
      payment_method: "payment_key",
      payment_destination: failing ? DESTINATION_FAILING : DESTINATION_OK,
      payment_destination_code: "PIX",
      partner_transaction_id: `chaos-${this.runId}-${n}`,
    });
    if (!this.expect(lookup, 200, "lookupPaymentCode")) return;
    const txId: string = lookup!.json.tx_id;
    const quote = await this.call("quote", "partner", "POST", "/getQuotation", auth, {
      tx_id: txId,
      amount: AMOUNT_BRL,
    });
    if (!this.expect(quote, 200, "getQuotation")) return;
    const key = `chaos-${this.runId}-${txId}`;
    const executed = await this.call(
      "execute",
      "partner",
      "POST",
      "/executePayout",
      {
        ...auth,
        "x-idempotency-key": key,
      },
      { tx_id: txId },
    );
    if (!this.expect(executed, 200, "executePayout")) return;
    if (executed!.json.tx_id !== txId || executed!.json.status !== "PROCESSING") {
      this.unexpected("executePayout", executed!);
      return;
    }
    this.count("payouts executed");
    if (n % REEXECUTE_EVERY === 0) {
      const again = await this.call(
        "re-execute",
        "partner",
        "POST",
        "/executePayout",
        {
          ...auth,
          "x-idempotency-key": `${key}-again`,
        },
        { tx_id: txId },
      );
      if (again?.status === 409 && again.json?.code === "TRANSACTION_NOT_PENDING")
        this.count("re-executions refused");
      else if (again) this.unexpected("executePayout with a second key", again);
    }
  }

  private async refundLoop(): Promise<void> {
    while (!this.refundStop || this.refundQueue.length > 0) {
      const txId = this.refundQueue.shift();
      if (!txId) {
        await sleep(100);
        continue;
      }
      this.refundsInFlight++;
      try {
        const answer = await this.call(
          "refund",
          "admin",
          "POST",
          `/admin/transactions/${txId}/refund`,
          {
            authorization: `Bearer ${this.adminToken}`,
          },
          { reason: "chaos suite refund" },
        );
        // 409 after a retry: the first attempt refunded it and its answer was lost.
        if (
          answer?.status === 200 ||
          (answer?.status === 409 && answer.json?.code === "TRANSACTION_NOT_REFUNDABLE")
        )
          this.count("refunds done");
        else if (answer) this.unexpected("refund", answer);
      } finally {
        this.refundsInFlight--;
      }
    }
  }

  private expect(answer: Answer | undefined, status: number, what: string): boolean {
    if (!answer) {
      this.count("payouts abandoned");
      return false;
    }
    if (answer.status === status) return true;
    this.unexpected(what, answer);
    return false;
  }

  private unexpected(what: string, answer: Answer): void {
    const key = `${what} ${answer.status} ${answer.json?.code ?? ""}`.trim();
    this.count(`unexpected: ${key}`);
    if (!this.unexpectedShown.has(key)) {
      this.unexpectedShown.add(key);
      this.log(`unexpected answer to ${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
  }

  /** One call, retried on 5xx, 429, IDEMPOTENCY_KEY_IN_USE, timeouts and connection errors; undefined when given up. */
  private async call(
    what: string,
    listener: "partner" | "admin",
    method: string,
    path: string,
    headers: Record<string, string>,
    body: unknown,
  ): Promise<Answer | undefined> {
    const started = Date.now();
    for (let attempt = 1; ; attempt++) {
      const gateway = this.gateways[this.roundRobin++ % Math.max(1, this.gateways.length)];
      let retryAfterMs: number | undefined;
      if (gateway) {
        const base = listener === "partner" ? gateway.partnerUrl : gateway.adminUrl;
        const answer = await this.once(`${base}${path}`, method, headers, body);
        if (typeof answer !== "string") {
          this.count(`http ${answer.status}`);
          if (!retryable(answer)) return answer;
          const header = Number(answer.headers.get("retry-after"));
          if (Number.isFinite(header) && header > 0) retryAfterMs = Math.min(header * 1000, 2_000);
        } else this.count(answer);
      }
      if (this.aborted) return undefined;
      if (Date.now() - started > this.settings.giveUpMs) {
        this.count(`gave up: ${what}`);
        return undefined;
      }
      this.count("retries");
      await sleep(retryAfterMs ?? Math.min(100 * 2 ** attempt, 2_000));
    }
  }

  private async once(
    url: string,
    method: string,
    headers: Record<string, string>,
    body: unknown,
  ): Promise<(Answer & { headers: Headers }) | "timeouts" | "connection errors"> {
    this.count("requests");
    try {
      const response = await fetch(url, {
        method,
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.requestTimeoutMs),
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
      return { status: response.status, text, json, headers: response.headers };
    } catch (error) {
      return (error as Error).name === "TimeoutError" ? "timeouts" : "connection errors";
    }
  }
}

function retryable(answer: Answer): boolean {
  return (
    answer.status >= 500 ||
    answer.status === 429 ||
    (answer.status === 409 && answer.json?.code === "IDEMPOTENCY_KEY_IN_USE")
  );
}

/** A stable 1-in-`every` choice by transaction id, so a redelivered notification decides the same way. */
function chosen(txId: string, every: number): boolean {
  return createHash("sha256").update(txId).digest().readUInt32BE(0) % every === 0;
}

function basic(account: PartnerAccount): string {
  return `Basic ${Buffer.from(`${account.clientId}:${account.clientSecret}`).toString("base64")}`;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
