/** The webhook service's reasons and its domain outcome type (the shared one, typed by these reasons). */
import type { DomainError, Result as SharedResult } from "@payouts/platform/domain-result";
import { defineReasons } from "@payouts/platform/reasons/define-reasons";

export { ok } from "@payouts/platform/domain-result";

/** Every reason the webhook service answers with, its gRPC status and, where fixed, its wording. */
export const WEBHOOKS = defineReasons({
  INVALID_FIELD: {},
  MISSING_REQUIRED_FIELD: {},
  INVALID_CONFIG: {},
  WEBHOOK_CONFIG_NOT_FOUND: {
    status: "NotFound",
    template: (configId: string) => ({ message: `webhook config ${JSON.stringify(configId)} not found` }),
  },
  /** Redelivering, or testing, needs an active configuration: deliveries of an inactive one are never claimed. */
  WEBHOOK_CONFIG_INACTIVE: {
    status: "FailedPrecondition",
    template: (configId: string, doing: string) => ({
      message: `webhook config ${configId} is inactive; reactivate it before ${doing}`,
    }),
  },
  /** A partner may not switch back on a receiver an operator switched off. */
  WEBHOOK_CONFIG_DISABLED_BY_OPERATOR: {
    status: "FailedPrecondition",
    template: (configId: string, reason: string | null) => ({
      message: `webhook config ${configId} was disabled by an operator (${reason ?? "no reason given"}); contact support to enable it`,
    }),
  },
  WEBHOOK_CONFIG_LIMIT_REACHED: {
    status: "FailedPrecondition",
    template: (maxConfigs: number) => ({
      message: `a partner may have at most ${maxConfigs} webhook configs; delete one first`,
    }),
  },
  DELIVERY_NOT_FOUND: {
    status: "NotFound",
    template: (deliveryId: string) => ({ message: `delivery ${JSON.stringify(deliveryId)} not found` }),
  },
  DELIVERY_IN_PROGRESS: {
    status: "FailedPrecondition",
    template: () => ({ message: "an attempt of this delivery is in flight; try again shortly" }),
  },
  RATE_LIMIT_EXCEEDED: { status: "ResourceExhausted" },
});

export const WEBHOOKS_REASONS = WEBHOOKS.codes;

export type WebhooksReason = (typeof WEBHOOKS_REASONS)[number];

export type WebhooksError = DomainError<WebhooksReason>;

export type Result<T, E = WebhooksError> = SharedResult<T, E>;

export const fail = WEBHOOKS.fail;
