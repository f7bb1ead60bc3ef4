import type { operations } from "./generated/partner.js";

/** An operation of the partner API, by its `operationId`. */
export type PartnerOperation = keyof operations;

type ErrorBodyOf<R> = R extends { content: { "application/json": infer Body } } ? Body : never;
type CodeOf<Body> = Body extends { code?: infer Code } ? Extract<Code, string> : never;
type Responses<Ops, Op extends keyof Ops> = Ops[Op] extends { responses: infer R } ? R : never;

/** The error codes an operation of `Ops` (openapi-typescript's `operations`) lists in its document. */
export type OperationErrorCode<Ops, Op extends keyof Ops> = CodeOf<
  ErrorBodyOf<Responses<Ops, Op>[Exclude<keyof Responses<Ops, Op>, 200 | 201 | 204>]>
>;

/** The error codes the document lists for one partner operation, e.g. `ErrorCodeOf<"executePayout">`. */
export type ErrorCodeOf<Op extends PartnerOperation> = OperationErrorCode<operations, Op>;

/** Every error code of the partner API (from the OpenAPI document). */
export type PartnerErrorCode = { [Op in PartnerOperation]: ErrorCodeOf<Op> }[PartnerOperation];

/**
 * Codes the client itself gives a failure that has no error body: `NETWORK_ERROR` when no answer arrived
 * (connection refused or reset, DNS, timeout; for executePayout the payout may or may not have been
 * made: retry with the same idempotency key), `INVALID_RESPONSE` when an answer is not the API's error
 * body (e.g. an HTML page from a proxy).
 */
export type ClientErrorCode = "NETWORK_ERROR" | "INVALID_RESPONSE";

export interface PayoutsErrorFields<Code extends string> {
  /** The HTTP status; 0 when no answer arrived (`NETWORK_ERROR`). */
  readonly status: number;
  readonly code: Code | ClientErrorCode;
  readonly message: string;
  /** The field, header or query parameter at fault, when one is. */
  readonly field?: string | undefined;
  /** The error body's `request_id`, else the `X-Request-Id` response header: quote it to support. */
  readonly request_id?: string | undefined;
  /** `Retry-After` of the answer, in milliseconds, when it had one (429, 503, 409 IDEMPOTENCY_KEY_IN_USE). */
  readonly retryAfterMs?: number | undefined;
  /** executePayout: the idempotency key used; retry later with it, never with a new one. */
  readonly idempotencyKey?: string | undefined;
  /** `INSUFFICIENT_FUNDS` on approveBatch: the USD the balance lacks (a decimal string). */
  readonly shortfall_usd?: string | undefined;
  /** `BATCH_DUPLICATE`: the batch first made from the same file. */
  readonly batch_id?: string | undefined;
  readonly cause?: unknown;
}

/**
 * Every failure of a call: an error answer of the API (its status, `code`, `message`, `field` and
 * `request_id`) or a client-side failure (`ClientErrorCode`). `code` is stable and meant for programs;
 * a newer platform may answer codes this version of the client does not list.
 */
export class PayoutsError<Code extends string = PartnerErrorCode> extends Error {
  override readonly name = "PayoutsError";
  readonly status: number;
  readonly code: Code | ClientErrorCode;
  readonly field: string | undefined;
  readonly request_id: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly idempotencyKey: string | undefined;
  readonly shortfall_usd: string | undefined;
  readonly batch_id: string | undefined;

  constructor(fields: PayoutsErrorFields<Code>) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.status = fields.status;
    this.code = fields.code;
    this.field = fields.field;
    this.request_id = fields.request_id;
    this.retryAfterMs = fields.retryAfterMs;
    this.idempotencyKey = fields.idempotencyKey;
    this.shortfall_usd = fields.shortfall_usd;
    this.batch_id = fields.batch_id;
  }

  /** A copy naming the idempotency key the failed call used. */
  withIdempotencyKey(idempotencyKey: string): PayoutsError<Code> {
    return new PayoutsError<Code>({ ...this.fields(), idempotencyKey });
  }

  private fields(): PayoutsErrorFields<Code> {
    return {
      status: this.status,
      code: this.code,
      message: this.message,
      field: this.field,
      request_id: this.request_id,
      retryAfterMs: this.retryAfterMs,
      idempotencyKey: this.idempotencyKey,
      shortfall_usd: this.shortfall_usd,
      batch_id: this.batch_id,
      cause: this.cause,
    };
  }
}

/** True for a PayoutsError, narrowing its code to those `operation` can answer when given. */
export function isPayoutsError<Op extends PartnerOperation>(
  error: unknown,
  _operation?: Op,
): error is PayoutsError<ErrorCodeOf<Op>> {
  return error instanceof PayoutsError;
}

/** The error of an answer that is not 2xx; `body` is what openapi-fetch parsed (JSON, or text). */
export function errorFromAnswer<Code extends string = PartnerErrorCode>(
  response: Response,
  body: unknown,
): PayoutsError<Code> {
  const headerRequestId = response.headers.get("x-request-id") ?? undefined;
  const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
  if (isErrorBody(body)) {
    return new PayoutsError<Code>({
      status: response.status,
      code: body.code as Code,
      message: body.message,
      field: typeof body.field === "string" ? body.field : undefined,
      request_id: typeof body.request_id === "string" ? body.request_id : headerRequestId,
      retryAfterMs,
      shortfall_usd: typeof body.shortfall_usd === "string" ? body.shortfall_usd : undefined,
      batch_id: typeof body.batch_id === "string" ? body.batch_id : undefined,
    });
  }
  const excerpt = typeof body === "string" ? body.slice(0, 200) : "";
  return new PayoutsError<Code>({
    status: response.status,
    code: "INVALID_RESPONSE",
    message: `HTTP ${response.status} without the API's error body${excerpt ? `: ${excerpt}` : ""}`,
    request_id: headerRequestId,
    retryAfterMs,
  });
}

/** The error of a call that got no answer. */
export function networkError<Code extends string = PartnerErrorCode>(cause: unknown): PayoutsError<Code> {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new PayoutsError<Code>({
    status: 0,
    code: "NETWORK_ERROR",
    message: `no answer: ${reason}`,
    cause,
  });
}

function isErrorBody(body: unknown): body is {
  code: string;
  message: string;
  field?: unknown;
  request_id?: unknown;
  shortfall_usd?: unknown;
  batch_id?: unknown;
} {
  if (typeof body !== "object" || body === null) return false;
  const candidate = body as Record<string, unknown>;
  return typeof candidate.code === "string" && typeof candidate.message === "string";
}

/**
 * `Retry-After` in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent
 * or unreadable. A date in the past is 0.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
