/** Operators' statement settings of a partner: the time zone its daily statements are cut in. */
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readBody } from "../http/read-body.js";
import {
  getStatementSettings,
  putStatementSettings,
  type StatementSettings,
} from "../operations/admin/statement-admin-api.js";
import { findPartner } from "../store/partner-store.js";

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
}

async function requirePartner(deps: GatewayDeps, partnerId: string): Promise<string> {
  if (!(await findPartner(deps.db, partnerId))) {
    throw new ApiError(404, "PARTNER_NOT_FOUND", `partner ${partnerId} not found`);
  }
  return partnerId;
}
