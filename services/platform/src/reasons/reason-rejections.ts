/**
 * A service's reason table (define-reasons.ts) as the ConnectErrors its handlers throw: each refusal with the
 * table's gRPC status and retry hint unless the call says otherwise, its reason and field in the ErrorDetail
 * the gateway maps.
 */
import type { DomainError, Result } from "../domain-result.js";
import { Code, type ConnectError, serviceError } from "../rpc/service-error.js";
import type { CodeOf, FactsOf, Reasons, ReasonTable, RpcStatus, TemplatedCode } from "./define-reasons.js";

export interface RejectionOptions {
  /** Overrides the table's status, for a reason whose status depends on the call. */
  readonly status?: Code;
  readonly metadata?: Record<string, string>;
}

export interface Rejections<T extends ReasonTable> {
  rejection(error: DomainError<CodeOf<T>>, options?: RejectionOptions): ConnectError;
  /** The value of a domain result, or its error thrown as a rejection. */
  valueOrReject<V>(result: Result<V, DomainError<CodeOf<T>>>): V;
  /** A templated reason's rejection. */
  reject<K extends TemplatedCode<T>>(code: K, ...facts: FactsOf<T, K>): ConnectError;
}

const CODE: { readonly [S in RpcStatus]: Code } = {
  InvalidArgument: Code.InvalidArgument,
  NotFound: Code.NotFound,
  FailedPrecondition: Code.FailedPrecondition,
  Aborted: Code.Aborted,
  ResourceExhausted: Code.ResourceExhausted,
  Unavailable: Code.Unavailable,
};

export function rejectionsFor<T extends ReasonTable>(reasons: Reasons<T>): Rejections<T> {
  const rejection = (error: DomainError<CodeOf<T>>, options: RejectionOptions = {}): ConnectError => {
    const retryAfter = reasons.table[error.code]?.retryAfterSeconds;
    const metadata = options.metadata ?? {};
    return serviceError<CodeOf<T>>(error.code, error.message, {
      field: error.field,
      code: options.status ?? CODE[reasons.statusOf(error.code)],
      metadata:
        retryAfter === undefined ? metadata : { retry_after_seconds: String(retryAfter), ...metadata },
    });
  };
  return {
    rejection,
    valueOrReject: (result) => {
      if (!result.ok) throw rejection(result.error);
      return result.value;
    },
    reject: (code, ...facts) => rejection(reasons.of(code, ...facts)),
  };
}
