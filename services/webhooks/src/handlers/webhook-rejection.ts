import { Code, type ConnectError, serviceError } from "@payouts/platform/rpc/service-error";

export { rejection, requirePartnerId, valueOrReject } from "@payouts/platform/rpc/rejection";

export const configNotFound = (configId: string): ConnectError =>
  serviceError("WEBHOOK_CONFIG_NOT_FOUND", `webhook config ${JSON.stringify(configId)} not found`, {
    code: Code.NotFound,
  });

export const deliveryNotFound = (deliveryId: string): ConnectError =>
  serviceError("DELIVERY_NOT_FOUND", `delivery ${JSON.stringify(deliveryId)} not found`, {
    code: Code.NotFound,
  });

/** Redelivering, or testing, needs an active configuration: deliveries of an inactive one are never claimed. */
export const configInactive = (configId: string, doing: string): ConnectError =>
  serviceError(
    "WEBHOOK_CONFIG_INACTIVE",
    `webhook config ${configId} is inactive; reactivate it before ${doing}`,
    { code: Code.FailedPrecondition },
  );
