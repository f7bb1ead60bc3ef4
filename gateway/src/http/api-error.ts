import type { Reason } from "./error-map.js";

/**
 * An error answered to the caller as `{code, message, field?, request_id}` with `status`. The code is one of
 * the declared reasons (error-map.ts), so the gateway cannot answer a code its table does not know.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: Reason,
    message: string,
    readonly field?: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const missingField = (field: string) =>
  new ApiError(400, "MISSING_REQUIRED_FIELD", `${field} is required`, field);
export const invalidField = (field: string, why: string) =>
  new ApiError(400, "INVALID_FIELD", `${field} ${why}`, field);
