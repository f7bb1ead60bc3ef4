/**
 * `webhooks.rate_buckets`: one token bucket per (partner, action), shared by every dispatcher replica. The
 * bucket rule itself is the pricing service's pure token bucket (the one behind previewQuotations).
 */
import type { Database } from "@payouts/platform/database/database";
import type { TakeResult, TokenBucket } from "@payouts/platform/rate-limit/token-bucket";

export async function takeToken(
  db: Database,
  key: { partnerId: string; action: string },
  bucket: TokenBucket,
  now: Date,
): Promise<TakeResult> {
  return db.transaction(async (tx) => {
    // A first request creates the full bucket; the row lock then serialises concurrent takes.
    await tx.query(
      `INSERT INTO webhooks.rate_buckets (partner_id, action, tokens, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (partner_id, action) DO NOTHING`,
      [key.partnerId, key.action, bucket.config.capacity, now],
    );
    const { rows } = await tx.query<{ tokens: number; updated_at: Date }>(
      "SELECT tokens, updated_at FROM webhooks.rate_buckets WHERE partner_id = $1 AND action = $2 FOR UPDATE",
      [key.partnerId, key.action],
    );
    const row = rows[0]!;
    const result = bucket.take(
      { tokens: Math.min(Number(row.tokens), bucket.config.capacity), updatedAtMs: row.updated_at.getTime() },
      now.getTime(),
    );
    await tx.query(
      "UPDATE webhooks.rate_buckets SET tokens = $3, updated_at = $4 WHERE partner_id = $1 AND action = $2",
      [key.partnerId, key.action, result.state.tokens, new Date(result.state.updatedAtMs)],
    );
    return result;
  });
}
