import type { Reason } from "./error-map.js";

/** Facts some refusals add to the error body (ErrorBody documents each). */
export interface ErrorFacts {
  /** INSUFFICIENT_FUNDS on a batch approval: the USD missing from the balance. */
  readonly shortfall_usd?: string;
  /** BATCH_DUPLICATE: the first batch made from the same file. */
  readonly batch_id?: string;
}

/**
 * An error answered to the caller as `{code, message, field?, …facts, request_id}` with `status`. The code is
 * one of the declared reasons (error-map.ts), so the gateway cannot answer a code its table does not know.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: Reason,
    message: string,
    readonly field?: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly facts: ErrorFacts = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const missingField = (field: string) =>
  new ApiError(400, "MISSING_REQUIRED_FIELD", `${field} is required`, field);
export const invalidField = (field: string, why: string) =>
  new ApiError(400, "INVALID_FIELD", `${field} ${why}`, field);
