/**
 * Operators' statement routes of a partner: the time zone its daily statements are cut in, and the
 * correction of a closed day (idempotent by X-Idempotency-Key, with the contract of balance credits).
 */
import { Dec } from "@payouts/platform/money/decimal";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readIdempotencyKey } from "../http/idempotency-key-header.js";
import { readBody } from "../http/read-body.js";
import { replyJson } from "../http/reply-json.js";
import { requestFingerprint } from "../http/request-fingerprint.js";
import {
  correctStatementDay,
  getStatementSettings,
  putStatementSettings,
  type Restatement,
  type StatementSettings,
} from "../operations/admin/statement-admin-api.js";
import { findPartner } from "../store/partner-store.js";

const CORRECTION_ROUTE = "POST /admin/partners/{partner_id}/statements/{date}/corrections";

/** What a correction asks (the exact amount, the note) of which partner's day: operator keys span both. */
function correctionFingerprint(partnerId: string, date: string, amountUsd: string, note: string): string {
  const fields = { amount_usd: new Dec(amountUsd).toFixed(), note };
  return requestFingerprint(CORRECTION_ROUTE, fields, { partner_id: partnerId, date });
}

export function registerStatementAdminRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { statements } = deps.clients;

  addRoute(app, getStatementSettings, async (request): Promise<StatementSettings> => {
    const partnerId = await requirePartner(deps, request.params.partner_id);
    const res = await statements.getStatementSettings({ partnerId });
    return { partner_id: partnerId, time_zone: res.settings?.timeZone ?? "" };
  });

  addRoute(app, putStatementSettings, async (request): Promise<StatementSettings> => {
    const { time_zone: timeZone } = readBody(putStatementSettings.body, request.body);
    const partnerId = await requirePartner(deps, request.params.partner_id);
    const res = await statements.setStatementSettings({ partnerId, timeZone });
    return { partner_id: partnerId, time_zone: res.settings?.timeZone ?? "" };
  });

  addRoute(app, correctStatementDay, async (request, reply) => {
    const idempotencyKey = readIdempotencyKey(request, "correction");
    const { amount_usd: amountUsd, note } = readBody(correctStatementDay.body, request.body);
    const partnerId = await requirePartner(deps, request.params.partner_id);
    const { date } = request.params;
    const res = await statements.correctStatementDay({
      partnerId,
      date,
      amountUsd,
      note,
      idempotencyKey,
      requestFingerprint: correctionFingerprint(partnerId, date, amountUsd, note),
      requestId: request.id,
    });
    if (res.replayed) reply.header("Idempotent-Replayed", "true");
    const restatement: Restatement = {
      partner_id: partnerId,
      date,
      statement_id: res.statementId,
      revision: res.revision,
      restates: res.restates,
    };
    return replyJson(reply, 201, restatement);
  });
}

async function requirePartner(deps: GatewayDeps, partnerId: string): Promise<string> {
  if (!(await findPartner(deps.db, partnerId))) {
    throw new ApiError(404, "PARTNER_NOT_FOUND", `partner ${partnerId} not found`);
  }
  return partnerId;
}
