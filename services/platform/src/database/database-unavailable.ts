import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "@payouts/proto/payouts/common/v1/common_pb";

/** What a caller is told to wait before trying again (the `Retry-After` the gateway sends). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/**
 * The database could not be reached, or lost the connection mid-work, and retrying inside the adapter
 * was not safe or did not help. It is a ConnectError with code Unavailable and the reason
 * SERVICE_UNAVAILABLE, so a service's RPC answers it as UNAVAILABLE with no mapping of its own and the
 * gateway answers 503 with `Retry-After`. `outcome` says whether the work certainly did not happen
 * ("not-applied") or whether COMMIT was sent and its answer lost ("unknown"): a caller that retries an
 * unknown outcome must do so idempotently (e.g. with the same idempotency key).
 */
export class DatabaseUnavailableError extends ConnectError {
  constructor(
    readonly outcome: "not-applied" | "unknown",
    cause: unknown,
  ) {
    const detail = create(ErrorDetailSchema, {
      reason: "SERVICE_UNAVAILABLE",
      field: "",
      metadata: { retry_after_seconds: String(DATABASE_RETRY_AFTER_SECONDS), outcome },
    });
    super(
      outcome === "unknown"
        ? "the database connection was lost while committing; the outcome is unknown, retry idempotently"
        : "the database is unavailable; retry later",
      Code.Unavailable,
      undefined,
      [{ desc: ErrorDetailSchema, value: detail }],
      cause,
    );
    // The name stays "ConnectError": Connect recognises its errors by name across module copies.
  }

  // ConnectError's own check accepts any error named ConnectError; this class is checked by prototype.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return Function.prototype[Symbol.hasInstance].call(DatabaseUnavailableError, value);
  }
}
