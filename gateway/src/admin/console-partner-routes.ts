/**
 * Operators' partner directory: the partner list with balances, a partner's apps with their
 * secrets' ids and times (never a secret or a hash), an app's previewQuotations limit, and the balance
 * history with a running balance. Creating and editing partners, apps and secrets is in
 * partner-admin-routes.ts; credits in ledger-admin-routes.ts.
 */

import { keysetPage } from "@payouts/platform/database/keyset-page";
import { timestampIso } from "@payouts/platform/time/timestamp-iso";
import type { FastifyInstance } from "fastify";
import { addRoute } from "../api/operation.js";
import type { GatewayDeps } from "../gateway-deps.js";
import { ApiError } from "../http/api-error.js";
import { readBody } from "../http/read-body.js";
import { NO_QUERY, readQuery } from "../http/read-query.js";
import {
  type AdminApp,
  type AppSettings,
  type BalanceHistory,
  listApps,
  listBalanceEntries,
  listPartners as listPartnersOperation,
  PARTNER_PAGE,
  type PartnerListItem,
  setAppRateLimit,
} from "../operations/admin/console-partner-api.js";
import { ID_PATTERN } from "../operations/admin/console-query-shapes.js";
import { listAppsWithSecrets, listPartners, setPreviewRateLimit } from "../store/partner-directory-store.js";
import { findPartner } from "../store/partner-store.js";

type PartnerPageShape = { partners: PartnerListItem[]; next_cursor: string | null };

export function registerConsolePartnerRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const { ledgerAdmin } = deps.clients;

  addRoute(app, listPartnersOperation, async (request): Promise<PartnerPageShape> => {
    // `limit` is never absent (its shape has a default), but its type cannot say so.
    const { name, limit = PARTNER_PAGE, cursor = "" } = readQuery(listPartnersOperation.query, request.query);
    if (cursor && !(await findPartner(deps.db, cursor))) {
      throw new ApiError(400, "INVALID_FIELD", "cursor is not a cursor returned by this list", "cursor");
    }
    const rows = await listPartners(deps.db, { name, after: cursor || undefined, limit: limit + 1 });
    const { page, nextCursor } = keysetPage(rows, limit, (last) => last.partner_id);
    const { balances } = await ledgerAdmin.listBalances({ partnerIds: page.map((p) => p.partner_id) });
    const balanceOf = new Map(balances.map((b) => [b.partnerId, b]));
    return {
      partners: page.map((p) => ({
        partner_id: p.partner_id,
        name: p.name,
        active_apps: p.active_apps,
        balance_usd: balanceOf.get(p.partner_id)?.balanceUsd ?? "0",
        in_flight_usd: balanceOf.get(p.partner_id)?.inFlightUsd ?? "0",
        created_at: p.created_at.toISOString(),
        updated_at: p.updated_at.toISOString(),
      })),
      next_cursor: nextCursor || null,
    };
  });

  addRoute(app, listApps, async (request): Promise<{ apps: AdminApp[] }> => {
    readQuery(NO_QUERY, request.query);
    const partnerId = await requirePartner(deps, request.params.partner_id);
    const apps = await listAppsWithSecrets(deps.db, partnerId);
    return {
      apps: apps.map((a) => ({
        client_id: a.client_id,
        partner_id: a.partner_id,
        preview_rate_limit_per_minute: a.preview_rate_limit_per_minute,
        created_at: a.created_at.toISOString(),
        revoked_at: a.revoked_at?.toISOString() ?? null,
        secrets: a.secrets.map((s) => ({
          secret_id: s.secret_id,
          created_at: new Date(s.created_at).toISOString(),
          revoked_at: s.revoked_at === null ? null : new Date(s.revoked_at).toISOString(),
        })),
      })),
    };
  });

  // The new limit applies on this gateway at once and on other replicas within AUTH_CACHE_TTL_MS.
  addRoute(app, setAppRateLimit, async (request): Promise<AppSettings> => {
    const perMinute = readBody(setAppRateLimit.body, request.body).preview_rate_limit_per_minute;
    const { partner_id, client_id } = request.params;
    const outcome = await setPreviewRateLimit(deps.db, partner_id, client_id, perMinute);
    if (outcome.kind === "app_not_found") {
      throw new ApiError(404, "APP_NOT_FOUND", `app ${client_id} not found for partner ${partner_id}`);
    }
    if (outcome.kind === "app_revoked") {
      throw new ApiError(409, "APP_REVOKED", `app ${client_id} is revoked`);
    }
    deps.verifier.forget(client_id);
    const a = outcome.app;
    return {
      client_id: a.client_id,
      partner_id: a.partner_id,
      preview_rate_limit_per_minute: a.preview_rate_limit_per_minute,
      created_at: a.created_at.toISOString(),
      revoked_at: a.revoked_at?.toISOString() ?? null,
    };
  });

  addRoute(app, listBalanceEntries, async (request): Promise<BalanceHistory> => {
    const q = readQuery(listBalanceEntries.query, request.query);
    const partnerId = await requirePartner(deps, request.params.partner_id);
    const res = await ledgerAdmin.listBalanceEntries({
      partnerId,
      limit: q.limit ?? 0,
      cursor: q.cursor ?? "",
    });
    return {
      partner_id: partnerId,
      balance_usd: res.balanceUsd,
      entries: res.entries.map((e) => ({
        entry_id: e.entryId,
        kind: e.kind as BalanceHistory["entries"][number]["kind"],
        tx_id: e.txId || null,
        reference: e.reference || null,
        amount_usd: e.amountUsd,
        balance_after_usd: e.balanceAfterUsd,
        created_at: timestampIso(e.createdAt),
      })),
      next_cursor: res.nextCursor || null,
    };
  });
}

async function requirePartner(deps: GatewayDeps, partnerId: string): Promise<string> {
  if (!new RegExp(ID_PATTERN).test(partnerId) || !(await findPartner(deps.db, partnerId))) {
    throw new ApiError(404, "PARTNER_NOT_FOUND", `partner ${partnerId} not found`);
  }
  return partnerId;
}
