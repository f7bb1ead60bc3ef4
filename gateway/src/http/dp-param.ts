import { DEFAULT_DP, MAX_DP, MIN_DP } from "@payouts/platform/money/json-decimal";
import { ApiError } from "./api-error.js";

/**
 * The `dp` query parameter: integer 0–10, default 2; anything else is 400 INVALID_FIELD, a repeated `dp`
 * included (which of two values the partner meant is not ours to guess).
 */
export function readDp(query: unknown): number {
  const raw = (query as Record<string, unknown> | undefined)?.dp;
  if (raw === undefined || raw === "") return DEFAULT_DP;
  const text = typeof raw === "string" ? raw : "";
  if (!/^\d{1,2}$/.test(text) || Number(text) < MIN_DP || Number(text) > MAX_DP) {
    throw new ApiError(400, "INVALID_FIELD", `dp must be an integer from ${MIN_DP} to ${MAX_DP}`, "dp");
  }
  return Number(text);
}
