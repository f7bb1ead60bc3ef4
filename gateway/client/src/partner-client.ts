import createClient, { type Client } from "openapi-fetch";
import { basicAuthorization } from "./base64.js";
import { errorFromAnswer, networkError, PayoutsError } from "./errors.js";
import type { components, paths } from "./generated/partner.js";
import { type RetrySetting, retryDelay, retryPolicy, sleep } from "./retry.js";

type Schemas = components["schemas"];

export type Customer = Schemas["Customer"];
export type CustomerRequest = Schemas["CustomerRequest"];
export type LookupPaymentCodeRequest = Schemas["LookupPaymentCodeRequest"];
export type DecodeQrRequest = Schemas["DecodeQrRequest"];
export type LookupResult = Schemas["LookupResult"];
export type BankList = Schemas["BankList"];
export type PreviewQuotationsRequest = Schemas["PreviewQuotationsRequest"];
export type PreviewQuotationsResponse = Schemas["PreviewQuotationsResponse"];
export type GetQuotationRequest = Schemas["GetQuotationRequest"];
export type BindingQuote = Schemas["BindingQuote"];
export type ExecutePayoutRequest = Schemas["ExecutePayoutRequest"];
export type Transaction = Schemas["Transaction"];
export type TransactionStatus = Schemas["TransactionStatus"];
export type TransactionList = Schemas["TransactionList"];
export type StatementPage = Schemas["StatementPage"];
export type StatementLine = Schemas["StatementLine"];
export type Balance = Schemas["Balance"];
export type DailyStatement = Schemas["DailyStatement"];
export type StatementRange = Schemas["StatementRange"];
export type DayTransactionsPage = Schemas["DayTransactionsPage"];
export type DayTransaction = Schemas["DayTransaction"];
export type WebhookConfig = Schemas["WebhookConfig"];
export type WebhookConfigCreateRequest = Schemas["WebhookConfigCreateRequest"];
export type WebhookConfigUpdateRequest = Schemas["WebhookConfigUpdateRequest"];
export type WebhookConfigList = Schemas["WebhookConfigList"];
export type WebhookSecretRotationRequest = Schemas["WebhookSecretRotationRequest"];
export type WebhookSecretRotation = Schemas["WebhookSecretRotation"];
export type WebhookTestResult = Schemas["WebhookTestResult"];
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookDeliveryList = Schemas["WebhookDeliveryList"];
export type Batch = Schemas["Batch"];
export type BatchCreated = Schemas["BatchCreated"];
export type BatchItem = Schemas["BatchItem"];
export type BatchItemList = Schemas["BatchItemList"];
export type BatchItemRequest = Schemas["BatchItemRequest"];
export type BatchList = Schemas["BatchList"];
export type CreateBatchRequest = Schemas["CreateBatchRequest"];

type Query<Path extends keyof paths, Method extends "get" | "post"> = paths[Path][Method] extends {
  parameters: { query?: infer Q };
}
  ? NonNullable<Q>
  : never;

export type ListBanksQuery = Query<"/listBanks", "get">;
export type ListTransactionsQuery = Query<"/listTransactions", "get">;
export type BalanceEntriesQuery = Query<"/balance/entries", "get">;
export type StatementRangeQuery = Omit<Query<"/statements", "get">, "format">;
export type StatementFormat = NonNullable<Query<"/statements", "get">["format"]>;
export type DayTransactionsQuery = Query<"/statements/daily/{date}/transactions", "get">;
export type ListWebhookDeliveriesQuery = Query<"/webhookDeliveries", "get">;
export type ListBatchesQuery = Query<"/batches", "get">;
export type BatchItemsQuery = Query<"/batches/{batch_id}/items", "get">;
export type UploadBatchQuery = Query<"/batches/upload", "post">;

/** What a batch file is: CSV with a header row, or NDJSON (one item a line). */
export type BatchFileFormat = "csv" | "ndjson";

const BATCH_FILE_TYPES: Readonly<Record<BatchFileFormat, string>> = {
  csv: "text/csv",
  ndjson: "application/x-ndjson",
};

/** Options of the calls that create a batch. */
export interface BatchCreateOptions extends CallOptions {
  /** Your key for this request (1–255 printable ASCII); default a fresh `crypto.randomUUID()`. */
  readonly idempotencyKey?: string;
}

/** What creating a batch answers, with the key it was made with. */
export interface CreatedBatch {
  readonly batch: BatchCreated;
  readonly idempotencyKey: string;
  /** True when the platform replayed the first answer of this key. */
  readonly replayed: boolean;
}

/** `waitForValidation` gave up: the batch was still being validated when its time ran out. */
export class ValidationTimeoutError extends Error {
  override readonly name = "ValidationTimeoutError";

  constructor(
    /** The batch as last read. */
    readonly batch: Batch,
    readonly timeoutMs: number,
  ) {
    super(`batch ${batch.batch_id} was still ${batch.status} after ${timeoutMs} ms`);
  }
}

export interface WaitOptions extends CallOptions {
  /** Give up after this long (default 120 s): rejects with a `ValidationTimeoutError`. */
  readonly timeoutMs?: number;
  /** Between polls (default 1 s). */
  readonly intervalMs?: number;
}

export interface PayoutsClientOptions {
  /** The partner API, e.g. `https://api.example.com` or `http://127.0.0.1:8080` for `npm start`. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** A fetch of your own (tests, proxies, instrumentation); default `globalThis.fetch`. */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Headers sent on every request (never `Authorization`: the credentials set it). */
  readonly headers?: Readonly<Record<string, string>>;
  /** executePayout's retries (default: 5 attempts, 200 ms doubling up to 5 s); `false` sends once. */
  readonly retry?: RetrySetting;
}

/** Options of every call. */
export interface CallOptions {
  /** Sent as `X-Request-Id` (1–128 of `[A-Za-z0-9._:-]`); the answer and any error echo it. */
  readonly requestId?: string;
  readonly signal?: AbortSignal;
}

export interface CancelBatchOptions extends CallOptions {
  /** Why you cancel it: 1–200 characters without control characters. */
  readonly reason?: string;
}

/** Calls whose answer carries USD amounts: `dp` rounds them (0–10, default 2); stored values keep full precision. */
export interface MoneyCallOptions extends CallOptions {
  readonly dp?: number;
}

export interface ExecutePayoutOptions extends MoneyCallOptions {
  /** Your key for this payout (1–255 printable ASCII); default a fresh `crypto.randomUUID()`. */
  readonly idempotencyKey?: string;
  /** This call's retries, instead of the client's. */
  readonly retry?: RetrySetting;
}

/** What executePayout answers: the transaction, and how it got there. */
export interface ExecutedPayout {
  readonly transaction: Transaction;
  /** The key the payout was made with: keep it with your order. */
  readonly idempotencyKey: string;
  /** True when the platform replayed an earlier outcome of this key (`Idempotent-Replayed: true`). */
  readonly replayed: boolean;
  /** Requests sent, the first included. */
  readonly attempts: number;
  readonly request_id: string | undefined;
}

type Answer<Data> = { data?: Data; error?: unknown; response: Response };
type Init = { headers: Record<string, string>; signal?: AbortSignal };

/**
 * The partner API over fetch, typed from its OpenAPI document. Every method resolves with the answer's
 * body and rejects with a `PayoutsError`, except when your `signal` aborts (its reason is thrown).
 */
export class PayoutsClient {
  /** The underlying openapi-fetch client (same credentials), for anything the methods do not cover. */
  readonly api: Client<paths>;
  private readonly retry: RetrySetting | undefined;

  constructor(options: PayoutsClientOptions) {
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      headers: {
        ...options.headers,
        authorization: basicAuthorization(options.clientId, options.clientSecret),
      },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    this.retry = options.retry;
  }

  /** `POST /customers`: registers a sender; every payout's sender comes from a customer. */
  createCustomer(body: CustomerRequest, options: CallOptions = {}): Promise<Customer> {
    return this.send((init) => this.api.POST("/customers", { ...init, body }), options);
  }

  /** `GET /customers/{customer_id}`. */
  getCustomer(customerId: string, options: CallOptions = {}): Promise<Customer> {
    return this.send(
      (init) =>
        this.api.GET("/customers/{customer_id}", { ...init, params: { path: { customer_id: customerId } } }),
      options,
    );
  }

  /** `POST /lookupPaymentCode`: validates a typed destination and creates a PENDING transaction. */
  lookupPaymentCode(body: LookupPaymentCodeRequest, options: MoneyCallOptions = {}): Promise<LookupResult> {
    return this.send(
      (init) => this.api.POST("/lookupPaymentCode", { ...init, body, params: { query: dpOf(options) } }),
      options,
    );
  }

  /** `POST /decodeQr`: the same for a scanned QR code. */
  decodeQr(body: DecodeQrRequest, options: MoneyCallOptions = {}): Promise<LookupResult> {
    return this.send(
      (init) => this.api.POST("/decodeQr", { ...init, body, params: { query: dpOf(options) } }),
      options,
    );
  }

  /** `GET /listBanks?country_code=XX`. */
  listBanks(query: ListBanksQuery, options: CallOptions = {}): Promise<BankList> {
    return this.send((init) => this.api.GET("/listBanks", { ...init, params: { query } }), options);
  }

  /** `POST /previewQuotations`: indicative prices in every supported currency; creates nothing. */
  previewQuotations(
    body: PreviewQuotationsRequest,
    options: MoneyCallOptions = {},
  ): Promise<PreviewQuotationsResponse> {
    return this.send(
      (init) => this.api.POST("/previewQuotations", { ...init, body, params: { query: dpOf(options) } }),
      options,
    );
  }

  /** `POST /getQuotation`: the binding price of a PENDING transaction. */
  getQuotation(body: GetQuotationRequest, options: MoneyCallOptions = {}): Promise<BindingQuote> {
    return this.send(
      (init) => this.api.POST("/getQuotation", { ...init, body, params: { query: dpOf(options) } }),
      options,
    );
  }

  /**
   * `POST /executePayout`: debits the balance once and hands the payout to the rail. The idempotency key
   * (yours, or a fresh UUID) is the same on every attempt, so a retry never pays twice: it is retried
   * after no answer, a 5xx or 409 IDEMPOTENCY_KEY_IN_USE, with capped exponential backoff and jitter and
   * never sooner than `Retry-After`; any other 4xx is final. A failure names the key in
   * `error.idempotencyKey`: retry later with it, never with a new one, while the outcome is unknown.
   */
  async executePayout(
    body: ExecutePayoutRequest,
    options: ExecutePayoutOptions = {},
  ): Promise<ExecutedPayout> {
    const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
    const policy = retryPolicy(options.retry ?? this.retry);
    for (let attempt = 1; ; attempt++) {
      const answer = await this.attempt(
        (init) =>
          this.api.POST("/executePayout", {
            ...init,
            body,
            params: { header: { "X-Idempotency-Key": idempotencyKey }, query: dpOf(options) },
          }),
        options,
      );
      if (!(answer instanceof PayoutsError)) {
        const { data, response } = answer;
        return {
          transaction: data as Transaction,
          idempotencyKey,
          replayed: response.headers.get("idempotent-replayed") === "true",
          attempts: attempt,
          request_id: response.headers.get("x-request-id") ?? undefined,
        };
      }
      const delay = retryDelay(answer, attempt, policy);
      if (delay === undefined) throw answer.withIdempotencyKey(idempotencyKey);
      await sleep(delay, options.signal);
    }
  }

  /**
   * `GET /balance/entries`: the statement lines after `after`, in feed order. Keep the last `next_cursor` and
   * poll with it: the feed never returns a line before a position it already returned.
   */
  listBalanceEntries(query: BalanceEntriesQuery = {}, options: CallOptions = {}): Promise<StatementPage> {
    return this.send((init) => this.api.GET("/balance/entries", { ...init, params: { query } }), options);
  }

  /**
   * `GET /statements/daily/{date}`: one day of the balance in your statement time zone (YYYY-MM-DD), its
   * summary and lines. A `closed` day never changes; its `sha256` identifies its content.
   */
  getDailyStatement(date: string, options: CallOptions = {}): Promise<DailyStatement> {
    return this.send(
      (init) =>
        this.api.GET("/statements/daily/{date}", {
          ...init,
          params: { path: { date }, query: { format: "json" } },
        }) as Promise<Answer<DailyStatement>>,
      options,
    );
  }

  /** `GET /statements`: the daily statements of `from`..`to` (at most 31 days), up to today. */
  listStatements(query: StatementRangeQuery, options: CallOptions = {}): Promise<StatementRange> {
    return this.send(
      (init) =>
        this.api.GET("/statements", { ...init, params: { query: { ...query, format: "json" } } }) as Promise<
          Answer<StatementRange>
        >,
      options,
    );
  }

  /**
   * One day's statement as a file in `format` (`csv`, `camt053` or `json`), streamed: the response body's
   * bytes as they arrive. A refusal (bad date, day not begun) rejects before any byte is read.
   */
  downloadDailyStatement(
    date: string,
    format: StatementFormat,
    options: CallOptions = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return this.send(
      (init) =>
        this.api.GET("/statements/daily/{date}", {
          ...init,
          params: { path: { date }, query: { format } },
          parseAs: "stream",
        }) as Promise<Answer<ReadableStream<Uint8Array>>>,
      options,
    );
  }

  /** The statements of `from`..`to` (at most 31 days) as one file in `format`, streamed as it is read. */
  downloadStatements(
    query: StatementRangeQuery & { format: StatementFormat },
    options: CallOptions = {},
  ): Promise<ReadableStream<Uint8Array>> {
    return this.send(
      (init) =>
        this.api.GET("/statements", { ...init, params: { query }, parseAs: "stream" }) as Promise<
          Answer<ReadableStream<Uint8Array>>
        >,
      options,
    );
  }

  /**
   * `GET /statements/daily/{date}/transactions`: the transactions you created on the day, oldest first,
   * each with its status now and the statement lines it produced; pass `next_cursor` as `after` for more.
   */
  listDailyTransactions(
    date: string,
    query: DayTransactionsQuery = {},
    options: CallOptions = {},
  ): Promise<DayTransactionsPage> {
    return this.send(
      (init) =>
        this.api.GET("/statements/daily/{date}/transactions", { ...init, params: { path: { date }, query } }),
      options,
    );
  }

  /** `GET /listTransactions`: one page, newest first; pass `next_cursor` as `cursor` for the next. */
  listTransactions(query: ListTransactionsQuery = {}, options: CallOptions = {}): Promise<TransactionList> {
    return this.send((init) => this.api.GET("/listTransactions", { ...init, params: { query } }), options);
  }

  /**
   * Every page of `GET /listTransactions` for `query`, following `next_cursor` until the last page;
   * starts at `query.cursor` when given. Pages are fetched as you iterate.
   */
  async *transactionPages(
    query: ListTransactionsQuery = {},
    options: CallOptions = {},
  ): AsyncGenerator<TransactionList, void, undefined> {
    let cursor = query.cursor;
    do {
      const page = await this.listTransactions(
        { ...query, ...(cursor === undefined ? {} : { cursor }) },
        options,
      );
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** Every transaction matching `query`, newest first, across pages (`for await (const tx of …)`). */
  async *transactions(
    query: ListTransactionsQuery = {},
    options: CallOptions = {},
  ): AsyncGenerator<Transaction, void, undefined> {
    for await (const page of this.transactionPages(query, options)) yield* page.transactions;
  }

  /** `GET /transactions/{tx_id}`: one transaction with its status history. */
  getTransaction(txId: string, options: MoneyCallOptions = {}): Promise<Transaction> {
    return this.send(
      (init) =>
        this.api.GET("/transactions/{tx_id}", {
          ...init,
          params: { path: { tx_id: txId }, query: dpOf(options) },
        }),
      options,
    );
  }

  /** `GET /balance`: the partner's USD balance. */
  getBalance(options: MoneyCallOptions = {}): Promise<Balance> {
    return this.send(
      (init) => this.api.GET("/balance", { ...init, params: { query: dpOf(options) } }),
      options,
    );
  }

  /** `POST /webhookConfigs`: a notification receiver (at most 10 per partner). */
  createWebhookConfig(body: WebhookConfigCreateRequest, options: CallOptions = {}): Promise<WebhookConfig> {
    return this.send((init) => this.api.POST("/webhookConfigs", { ...init, body }), options);
  }

  /** `GET /webhookConfigs`, oldest first. */
  listWebhookConfigs(options: CallOptions = {}): Promise<WebhookConfigList> {
    return this.send((init) => this.api.GET("/webhookConfigs", init), options);
  }

  /** `PATCH /webhookConfigs/{id}`: partial; `secret: null` and `basic_auth: null` clear. */
  updateWebhookConfig(
    id: string,
    body: WebhookConfigUpdateRequest,
    options: CallOptions = {},
  ): Promise<WebhookConfig> {
    return this.send(
      (init) => this.api.PATCH("/webhookConfigs/{id}", { ...init, body, params: { path: { id } } }),
      options,
    );
  }

  /** `DELETE /webhookConfigs/{id}`, with its delivery log. */
  async deleteWebhookConfig(id: string, options: CallOptions = {}): Promise<void> {
    await this.send(
      (init) => this.api.DELETE("/webhookConfigs/{id}", { ...init, params: { path: { id } } }),
      options,
    );
  }

  /** `POST /webhookConfigs/{id}/rotateSecret`: the new secret, answered this once. */
  rotateWebhookSecret(
    id: string,
    body: WebhookSecretRotationRequest = {},
    options: CallOptions = {},
  ): Promise<WebhookSecretRotation> {
    return this.send(
      (init) =>
        this.api.POST("/webhookConfigs/{id}/rotateSecret", { ...init, body, params: { path: { id } } }),
      options,
    );
  }

  /** `POST /webhookConfigs/{id}/test`: sends a signed test notification and waits for the answer. */
  testWebhookConfig(id: string, options: CallOptions = {}): Promise<WebhookTestResult> {
    return this.send(
      (init) => this.api.POST("/webhookConfigs/{id}/test", { ...init, params: { path: { id } } }),
      options,
    );
  }

  /** `GET /webhookDeliveries`: the delivery log, newest first, with each delivery's attempts. */
  listWebhookDeliveries(
    query: ListWebhookDeliveriesQuery = {},
    options: CallOptions = {},
  ): Promise<WebhookDeliveryList> {
    return this.send((init) => this.api.GET("/webhookDeliveries", { ...init, params: { query } }), options);
  }

  /** `POST /webhookDeliveries/{id}/redeliver`: sends a delivery again (same event id and bytes). */
  redeliverWebhook(id: string, options: CallOptions = {}): Promise<WebhookDelivery> {
    return this.send(
      (init) => this.api.POST("/webhookDeliveries/{id}/redeliver", { ...init, params: { path: { id } } }),
      options,
    );
  }

  /**
   * `POST /batches`: a batch of up to 1,000 items (add more with `putBatchItems`), validated after the
   * answer. The idempotency key (yours, or a fresh UUID) makes a retry safe: the same key and body answer
   * the first answer again (`replayed`).
   */
  async createBatch(body: CreateBatchRequest, options: BatchCreateOptions = {}): Promise<CreatedBatch> {
    const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
    const { data, response } = await this.answer(
      (init) =>
        this.api.POST("/batches", {
          ...init,
          body,
          params: { header: { "X-Idempotency-Key": idempotencyKey } },
        }),
      options,
    );
    return { batch: data as BatchCreated, idempotencyKey, replayed: isReplayed(response) };
  }

  /**
   * `POST /batches/upload`: a batch from a CSV or NDJSON file of up to 10,000 rows, sent as a stream (a
   * `ReadableStream`, e.g. from `fs.openAsBlob(path).stream()`) or whole (bytes, Blob or string). The same
   * file again is `BATCH_DUPLICATE`, with `error.batch_id` naming the first batch.
   */
  async uploadBatchFile(
    file: ReadableStream<Uint8Array> | Uint8Array | Blob | string,
    format: BatchFileFormat,
    query: UploadBatchQuery = {},
    options: BatchCreateOptions = {},
  ): Promise<CreatedBatch> {
    const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
    const streamed = typeof ReadableStream !== "undefined" && file instanceof ReadableStream;
    const { data, response } = await this.answer(
      (init) =>
        this.api.POST("/batches/upload", {
          ...init,
          params: { header: { "X-Idempotency-Key": idempotencyKey }, query },
          // openapi-fetch sends a non-JSON body as given once bodySerializer returns it unchanged.
          body: file as never,
          bodySerializer: (body: unknown) => body,
          headers: { ...init.headers, "content-type": BATCH_FILE_TYPES[format] },
          ...(streamed ? { duplex: "half" } : {}),
        } as never) as Promise<Answer<BatchCreated>>,
      options,
    );
    return { batch: data as BatchCreated, idempotencyKey, replayed: isReplayed(response) };
  }

  /** `GET /batches`: one page of your batches, newest first. */
  listBatches(query: ListBatchesQuery = {}, options: CallOptions = {}): Promise<BatchList> {
    return this.send((init) => this.api.GET("/batches", { ...init, params: { query } }), options);
  }

  /** `GET /batches/{batch_id}`: status, counts and amounts. */
  getBatch(batchId: string, options: CallOptions = {}): Promise<Batch> {
    return this.send(
      (init) => this.api.GET("/batches/{batch_id}", { ...init, params: { path: { batch_id: batchId } } }),
      options,
    );
  }

  /**
   * Polls `getBatch` until the batch is no longer DRAFT or VALIDATING (every item has a result) and
   * answers it; rejects with a `ValidationTimeoutError` (holding the last batch read) after `timeoutMs`
   * (default 120 s).
   */
  async waitForValidation(batchId: string, options: WaitOptions = {}): Promise<Batch> {
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    for (;;) {
      const batch = await this.getBatch(batchId, options);
      if (batch.status !== "VALIDATING" && batch.status !== "DRAFT") return batch;
      if (Date.now() >= deadline) {
        throw new ValidationTimeoutError(batch, options.timeoutMs ?? 120_000);
      }
      await sleep(options.intervalMs ?? 1000, options.signal);
    }
  }

  /** `GET /batches/{batch_id}/items`: one page of the per-item report, in row order. */
  listBatchItems(
    batchId: string,
    query: BatchItemsQuery = {},
    options: CallOptions = {},
  ): Promise<BatchItemList> {
    return this.send(
      (init) =>
        this.api.GET("/batches/{batch_id}/items", {
          ...init,
          params: { path: { batch_id: batchId }, query },
        }),
      options,
    );
  }

  /** Every item of the report matching `query`, in row order, pages fetched as you iterate. */
  async *batchItems(
    batchId: string,
    query: BatchItemsQuery = {},
    options: CallOptions = {},
  ): AsyncGenerator<BatchItem, void, undefined> {
    let cursor = query.cursor;
    do {
      const page = await this.listBatchItems(
        batchId,
        { ...query, ...(cursor === undefined ? {} : { cursor }) },
        options,
      );
      yield* page.items;
      cursor = page.next_cursor ?? undefined;
    } while (cursor !== undefined);
  }

  /** `PUT /batches/{batch_id}/items`: adds up to 1,000 items, or replaces those with the same `item_ref`. */
  putBatchItems(batchId: string, items: BatchItemRequest[], options: CallOptions = {}): Promise<Batch> {
    return this.send(
      (init) =>
        this.api.PUT("/batches/{batch_id}/items", {
          ...init,
          body: { items },
          params: { path: { batch_id: batchId } },
        }),
      options,
    );
  }

  /** `DELETE /batches/{batch_id}/items/{item_ref}`. */
  removeBatchItem(batchId: string, itemRef: string, options: CallOptions = {}): Promise<Batch> {
    return this.send(
      (init) =>
        this.api.DELETE("/batches/{batch_id}/items/{item_ref}", {
          ...init,
          params: { path: { batch_id: batchId, item_ref: itemRef } },
        }),
      options,
    );
  }

  /**
   * `POST /batches/{batch_id}/approve` as this client's credential. The last required approval funds the
   * batch; `INSUFFICIENT_FUNDS` carries `error.shortfall_usd`.
   */
  approveBatch(batchId: string, options: CallOptions = {}): Promise<Batch> {
    return this.send(
      (init) =>
        this.api.POST("/batches/{batch_id}/approve", { ...init, params: { path: { batch_id: batchId } } }),
      options,
    );
  }

  /**
   * `POST /batches/{batch_id}/cancel`, before funding. `reason` (1–200 characters) is kept on the batch's
   * `cancel_reason`.
   */
  cancelBatch(batchId: string, options: CancelBatchOptions = {}): Promise<Batch> {
    const { reason, ...call } = options;
    return this.send(
      (init) =>
        this.api.POST("/batches/{batch_id}/cancel", {
          ...init,
          params: { path: { batch_id: batchId } },
          ...(reason === undefined ? {} : { body: { reason } }),
        }),
      call,
    );
  }

  /** `POST /batches/{batch_id}/retry-failed`: a child batch of a COMPLETED batch's FAILED and EXCLUDED items. */
  async retryFailed(batchId: string, options: BatchCreateOptions = {}): Promise<CreatedBatch> {
    const idempotencyKey = options.idempotencyKey ?? crypto.randomUUID();
    const { data, response } = await this.answer(
      (init) =>
        this.api.POST("/batches/{batch_id}/retry-failed", {
          ...init,
          params: { path: { batch_id: batchId }, header: { "X-Idempotency-Key": idempotencyKey } },
        }),
      options,
    );
    return { batch: data as BatchCreated, idempotencyKey, replayed: isReplayed(response) };
  }

  /** `GET /batches/{batch_id}/results.csv`: the report as CSV, streamed as it arrives. */
  downloadResults(batchId: string, options: CallOptions = {}): Promise<ReadableStream<Uint8Array>> {
    return this.send(
      (init) =>
        this.api.GET("/batches/{batch_id}/results.csv", {
          ...init,
          params: { path: { batch_id: batchId } },
          parseAs: "stream",
        }) as Promise<Answer<ReadableStream<Uint8Array>>>,
      options,
    );
  }

  /** One request: its 2xx answer (body and response), or a thrown PayoutsError. */
  private async answer<Data>(run: (init: Init) => Promise<Answer<Data>>, options: CallOptions) {
    const answer = await this.attempt(run, options);
    if (answer instanceof PayoutsError) throw answer;
    return answer;
  }

  /** One request: its body, or a PayoutsError. */
  private async send<Data>(run: (init: Init) => Promise<Answer<Data>>, options: CallOptions): Promise<Data> {
    const answer = await this.attempt(run, options);
    if (answer instanceof PayoutsError) throw answer;
    return answer.data as Data;
  }

  /** One request: the 2xx answer, or the failure as a value (so executePayout can decide to retry). */
  private async attempt<Data>(
    run: (init: Init) => Promise<Answer<Data>>,
    options: CallOptions,
  ): Promise<Answer<Data> | PayoutsError> {
    const init: Init = {
      headers: options.requestId === undefined ? {} : { "x-request-id": options.requestId },
      ...(options.signal ? { signal: options.signal } : {}),
    };
    let answer: Answer<Data>;
    try {
      answer = await run(init);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      return networkError(error);
    }
    return answer.response.ok ? answer : errorFromAnswer(answer.response, answer.error);
  }
}

/** A client of the partner API with HTTP Basic credentials (an app's client id and secret). */
export function createPayoutsClient(options: PayoutsClientOptions): PayoutsClient {
  return new PayoutsClient(options);
}

const isReplayed = (response: Response) => response.headers.get("idempotent-replayed") === "true";

function dpOf(options: MoneyCallOptions): { dp?: number } {
  return options.dp === undefined ? {} : { dp: options.dp };
}
