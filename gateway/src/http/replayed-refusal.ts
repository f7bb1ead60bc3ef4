import { ConnectError } from "@connectrpc/connect";
import { errorDetailOf } from "@payouts/platform/rpc/service-error";
import type { FastifyReply, FastifyRequest } from "fastify";
import { httpStatusFor } from "./error-map.js";

/**
 * A refusal stored under an idempotency key is answered exactly as the first time — same status and the
 * same body bytes, including the first request's request_id — plus `Idempotent-Replayed: true`. Anything
 * else is thrown on.
 */
export function replayedRefusal(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const detail = errorDetailOf(error);
  if (!(error instanceof ConnectError) || !detail || detail.metadata.replayed !== "true") throw error;
  reply.header("Idempotent-Replayed", "true");
  return reply.code(httpStatusFor(detail.reason, error.code)).send({
    code: detail.reason,
    message: error.rawMessage,
    ...(detail.field ? { field: detail.field } : {}),
    request_id: detail.metadata.request_id || request.id,
  });
}
