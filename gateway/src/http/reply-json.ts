import { stringifyJson } from "@payouts/platform/money/json-decimal";
import type { FastifyReply } from "fastify";

/** Sends a body that may hold exact decimals (JsonDecimal) as JSON numbers with their exact digits. */
export function replyJson(reply: FastifyReply, status: number, value: unknown): FastifyReply {
  return reply.code(status).type("application/json; charset=utf-8").send(stringifyJson(value));
}
