import { rejection as reject } from "@payouts/platform/rpc/rejection";
import { Code, type ConnectError, serviceError } from "@payouts/platform/rpc/service-error";
import type { WebhooksError, WebhooksReason } from "../domain/result.js";

export { requirePartnerId, valueOrReject } from "@payouts/platform/rpc/rejection";

/** A rule violation as the ConnectError the gateway maps by reason; only the dispatcher's reasons compile. */
export const rejection = (error: WebhooksError, code?: Code): ConnectError =>
  reject<WebhooksReason>(error, code);

export const configNotFound = (configId: string): ConnectError =>
  serviceError<WebhooksReason>(
    "WEBHOOK_CONFIG_NOT_FOUND",
    `webhook config ${JSON.stringify(configId)} not found`,
    {
      code: Code.NotFound,
    },
  );

export const deliveryNotFound = (deliveryId: string): ConnectError =>
  serviceError<WebhooksReason>("DELIVERY_NOT_FOUND", `delivery ${JSON.stringify(deliveryId)} not found`, {
    code: Code.NotFound,
  });

/** Redelivering, or testing, needs an active configuration: deliveries of an inactive one are never claimed. */
export const configInactive = (configId: string, doing: string): ConnectError =>
  serviceError<WebhooksReason>(
    "WEBHOOK_CONFIG_INACTIVE",
    `webhook config ${configId} is inactive; reactivate it before ${doing}`,
    { code: Code.FailedPrecondition },
  );

/** A partner may not switch back on a receiver an operator switched off. */
export const configDisabledByOperator = (configId: string, reason: string | null): ConnectError =>
  serviceError<WebhooksReason>(
    "WEBHOOK_CONFIG_DISABLED_BY_OPERATOR",
    `webhook config ${configId} was disabled by an operator (${reason ?? "no reason given"}); contact support to enable it`,
    { code: Code.FailedPrecondition },
  );
