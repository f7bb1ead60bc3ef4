/**
 * Operators' reads of partners and apps (the console's partner list and app table). Never reads a
 * secret hash.
 */
import type { Queryable } from "@payouts/platform/database/database";
import type { AppRow, PartnerRow } from "./partner-store.js";

export interface PartnerListRow extends PartnerRow {
  readonly active_apps: number;
}

/**
 * Newest first, by (created_at, partner_id); `after` is the last partner id of the previous page, its
 * position read from the row itself so no timestamp is rounded on the way. `name` matches anywhere in the
 * name, case-insensitively, as plain text.
 */
export async function listPartners(
  db: Queryable,
  f: { readonly name: string | undefined; readonly after: string | undefined; readonly limit: number },
): Promise<PartnerListRow[]> {
  const res = await db.query<PartnerListRow>(
    `SELECT p.*, (SELECT count(*)::int FROM gateway.apps a
                   WHERE a.partner_id = p.partner_id AND a.revoked_at IS NULL) AS active_apps
       FROM gateway.partners p
      WHERE ($1::text IS NULL OR p.name ILIKE '%' || replace(replace(replace($1, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '%')
        AND ($2::text IS NULL OR (p.created_at, p.partner_id) <
             (SELECT created_at, partner_id FROM gateway.partners WHERE partner_id = $2))
      ORDER BY p.created_at DESC, p.partner_id DESC
      LIMIT $3`,
    [f.name ?? null, f.after ?? null, f.limit],
  );
  return res.rows;
}

export interface AppWithSecrets extends AppRow {
  readonly secrets: { secret_id: string; created_at: string; revoked_at: string | null }[];
}

/** The partner's apps, newest first, each with its secrets' ids and times (newest first), never a hash. */
export async function listAppsWithSecrets(db: Queryable, partnerId: string): Promise<AppWithSecrets[]> {
  const res = await db.query<AppWithSecrets>(
    `SELECT a.client_id, a.partner_id, a.preview_rate_limit_per_minute, a.created_at, a.revoked_at,
            COALESCE((SELECT json_agg(json_build_object('secret_id', s.secret_id, 'created_at', s.created_at,
                                                        'revoked_at', s.revoked_at)
                                      ORDER BY s.created_at DESC, s.secret_id DESC)
                        FROM gateway.app_secrets s WHERE s.client_id = a.client_id), '[]') AS secrets
       FROM gateway.apps a
      WHERE a.partner_id = $1
      ORDER BY a.created_at DESC, a.client_id DESC`,
    [partnerId],
  );
  return res.rows;
}

export type RateLimitOutcome =
  | { kind: "updated"; app: AppRow }
  | { kind: "app_not_found" }
  | { kind: "app_revoked" };

/** Sets an active app's previewQuotations limit per minute. */
export async function setPreviewRateLimit(
  db: Queryable,
  partnerId: string,
  clientId: string,
  perMinute: number,
): Promise<RateLimitOutcome> {
  const res = await db.query<AppRow & { updated: boolean }>(
    `WITH target AS (
       SELECT client_id, revoked_at FROM gateway.apps WHERE client_id = $1 AND partner_id = $2
     ), changed AS (
       UPDATE gateway.apps a SET preview_rate_limit_per_minute = $3
         FROM target WHERE a.client_id = target.client_id AND target.revoked_at IS NULL
       RETURNING a.client_id, a.partner_id, a.preview_rate_limit_per_minute, a.created_at, a.revoked_at
     )
     SELECT changed.*, true AS updated FROM changed
     UNION ALL
     SELECT target.client_id, $2, 0, now(), target.revoked_at, false FROM target
      WHERE NOT EXISTS (SELECT 1 FROM changed)`,
    [clientId, partnerId, perMinute],
  );
  const row = res.rows[0];
  if (!row) return { kind: "app_not_found" };
  if (!row.updated) return { kind: "app_revoked" };
  const { updated: _updated, ...app } = row;
  return { kind: "updated", app };
}
