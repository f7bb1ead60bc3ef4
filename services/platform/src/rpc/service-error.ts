import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { type ErrorDetail, ErrorDetailSchema } from "@payouts/proto/payouts/common/v1/common_pb";

/**
 * A deliberate, documented failure of a service: a ConnectError whose ErrorDetail carries the stable
 * reason (the partner-facing code) and the field at fault. Anything else reaching the gateway is an
 * internal error. The caller names its service's reason union (`serviceError<WebhooksReason>(…)`): the reason
 * is never inferred, so only a declared reason compiles.
 */
export function serviceError<R extends string = never>(
  reason: NoInfer<R>,
  message: string,
  options: { field?: string | undefined; code?: Code; metadata?: Record<string, string> } = {},
): ConnectError {
  const detail = create(ErrorDetailSchema, {
    reason,
    field: options.field ?? "",
    metadata: options.metadata ?? {},
  });
  return new ConnectError(message, options.code ?? Code.InvalidArgument, undefined, [
    { desc: ErrorDetailSchema, value: detail },
  ]);
}

export function errorDetailOf(error: unknown): ErrorDetail | undefined {
  if (!(error instanceof ConnectError)) return undefined;
  return error.findDetails(ErrorDetailSchema)[0];
}

export { Code, ConnectError };
