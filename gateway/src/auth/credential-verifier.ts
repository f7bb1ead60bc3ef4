import { createHash, timingSafeEqual } from "node:crypto";
import type { Queryable } from "@payouts/platform/database/database";
import { findApp } from "../store/partner-store.js";
import { verifySecret } from "./secret-hash.js";

export interface AuthenticatedApp {
  readonly clientId: string;
  readonly partnerId: string;
  readonly previewRateLimitPerMinute: number;
}

/**
 * Checks client credentials against the stored scrypt hashes. A successful check is remembered for
 * `cacheTtlMs` as a SHA-256 digest of the secret, so the scrypt cost is paid once per app and TTL, not
 * per request. Revocation clears this process's entry at once; other gateway replicas stop accepting
 * the app within one TTL.
 */
export function createCredentialVerifier(
  db: Queryable,
  options: { cacheTtlMs?: number; now?: () => number } = {},
) {
  const ttl = options.cacheTtlMs ?? 30_000;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { digest: Buffer; app: AuthenticatedApp; expiresAt: number }>();
  const digest = (secret: string) => createHash("sha256").update(secret).digest();

  return {
    async verify(clientId: string, secret: string): Promise<AuthenticatedApp | undefined> {
      const cached = cache.get(clientId);
      if (cached && cached.expiresAt > now()) {
        return timingSafeEqual(cached.digest, digest(secret)) ? cached.app : undefined;
      }
      const row = await findApp(db, clientId);
      if (!row || row.revoked_at !== null) return undefined;
      if (!(await verifySecret(secret, row.secret_hash))) return undefined;
      const app: AuthenticatedApp = {
        clientId: row.client_id,
        partnerId: row.partner_id,
        previewRateLimitPerMinute: row.preview_rate_limit_per_minute,
      };
      cache.set(clientId, { digest: digest(secret), app, expiresAt: now() + ttl });
      return app;
    },
    forget(clientId: string): void {
      cache.delete(clientId);
    },
  };
}

export type CredentialVerifier = ReturnType<typeof createCredentialVerifier>;
