/**
 * Partner fees on a USD amount: a percentage of `amount_usd` plus a fixed USD fee.
 *
 * Nothing here rounds to cents: rounding to the partner's `dp` happens only when a response is rendered.
 * The percentage fee is quantized to INTERNAL_SCALE (a change below 10^-18 USD) so that every figure of a
 * quote fits the stored scale and `total_usd = amount_usd + percentage_fee + fixed_fee` holds exactly in
 * storage, as the partner API requires of the amount deducted from the partner balance.
 */
import { Dec, INTERNAL_SCALE, parseDecimal, toInternalScale } from "@payouts/platform/money/decimal";
import { fail, ok, type Result } from "./pricing-error.js";
import { fitsStoredScale } from "./stored-decimal.js";

export interface FeeSchedule {
  /** Percent of amount_usd: "1.5" means 1.5 %. */
  readonly percent: Dec;
  readonly fixedUsd: Dec;
}

export interface FeeBreakdown {
  readonly amountUsd: Dec;
  readonly percentageFee: Dec;
  readonly fixedFee: Dec;
  /** percentageFee + fixedFee. */
  readonly fee: Dec;
  /** amountUsd + fee: what the partner balance is debited. */
  readonly totalUsd: Dec;
}

/** A partner with no fee schedule configured pays no fees. */
export const NO_FEES: FeeSchedule = { percent: new Dec(0), fixedUsd: new Dec(0) };

export function applyFees(amountUsd: Dec, schedule: FeeSchedule): FeeBreakdown {
  const percentageFee = toInternalScale(amountUsd.times(schedule.percent).div(100));
  const fixedFee = schedule.fixedUsd;
  const fee = percentageFee.plus(fixedFee);
  return { amountUsd, percentageFee, fixedFee, fee, totalUsd: amountUsd.plus(fee) };
}

/**
 * Validates an admin fee schedule (`{percent: "1.5", fixed_usd: "0.30"}`, strings or numbers): percent from 0
 * up to but excluding 100, fixed fee at least 0, neither with more than INTERNAL_SCALE decimals.
 */
export function parseFeeSchedule(input: { percent: unknown; fixed_usd: unknown }): Result<FeeSchedule> {
  const percent = parseFeePercent(input.percent);
  if (!percent.ok) {
    return percent;
  }
  const fixedUsd = parseFixedFeeUsd(input.fixed_usd);
  return fixedUsd.ok ? ok({ percent: percent.value, fixedUsd: fixedUsd.value }) : fixedUsd;
}

/** One half of a fee schedule, for partial updates that change only the percentage. */
export function parseFeePercent(input: unknown): Result<Dec> {
  const percent = parseDecimal(input);
  if (percent === undefined || percent.isNegative() || percent.gte(100) || percent.dp() > INTERNAL_SCALE) {
    return fail("INVALID_FIELD", "fees.percent must be a decimal from 0 to below 100", "fees.percent");
  }
  return ok(percent);
}

/** The other half of a fee schedule, for partial updates that change only the fixed fee. */
export function parseFixedFeeUsd(input: unknown): Result<Dec> {
  const fixedUsd = parseDecimal(input);
  if (fixedUsd === undefined || fixedUsd.isNegative() || !fitsStoredScale(fixedUsd)) {
    return fail("INVALID_FIELD", "fees.fixed_usd must be a decimal of at least 0", "fees.fixed_usd");
  }
  return ok(fixedUsd);
}
