/** The webhook dispatcher's reasons and its domain outcome type (the shared one, typed by these reasons). */
import {
  type DomainError,
  type Result as SharedResult,
  fail as sharedFail,
} from "@payouts/platform/domain-result";

export { ok } from "@payouts/platform/domain-result";

/** Every reason the webhook dispatcher answers with. */
export const WEBHOOKS_REASONS = [
  "INVALID_FIELD",
  "MISSING_REQUIRED_FIELD",
  "INVALID_CONFIG",
  "WEBHOOK_CONFIG_NOT_FOUND",
  "WEBHOOK_CONFIG_INACTIVE",
  "WEBHOOK_CONFIG_DISABLED_BY_OPERATOR",
  "WEBHOOK_CONFIG_LIMIT_REACHED",
  "DELIVERY_NOT_FOUND",
  "DELIVERY_IN_PROGRESS",
  "RATE_LIMIT_EXCEEDED",
] as const;

export type WebhooksReason = (typeof WEBHOOKS_REASONS)[number];

export type WebhooksError = DomainError<WebhooksReason>;

export type Result<T, E = WebhooksError> = SharedResult<T, E>;

export const fail = (code: WebhooksReason, message: string, field?: string): Result<never> =>
  sharedFail(code, message, field);
