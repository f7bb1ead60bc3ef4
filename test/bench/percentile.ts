/**
 * The p-th percentile (nearest rank) of `values`, rounded to 0.01; 0 for no values. Sorts a copy.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return Math.round(sorted[rank - 1]! * 100) / 100;
}
