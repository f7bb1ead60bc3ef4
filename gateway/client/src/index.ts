/**
 * @payouts/client: the partner API of the Payouts platform over fetch, typed from its OpenAPI document.
 * Web APIs only (fetch, Web Crypto, TextEncoder): Node ≥ 20, Deno, Bun, browsers and edge runtimes.
 */
export { basicAuthorization } from "./base64.js";
export {
  type ClientErrorCode,
  type ErrorCodeOf,
  isPayoutsError,
  type OperationErrorCode,
  type PartnerErrorCode,
  type PartnerOperation,
  PayoutsError,
} from "./errors.js";
export type { components, operations, paths } from "./generated/partner.js";
export { TRANSACTION_STATUSES } from "./generated/transaction-statuses.js";
export * from "./partner-client.js";
export { DEFAULT_RETRY, type RetryOptions, type RetrySetting } from "./retry.js";
export * from "./webhooks.js";
