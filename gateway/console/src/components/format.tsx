/** Formatting shared by every view. Amounts stay decimal strings: they are shown, never computed with. */

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { hour12: false });
}

/**
 * A decimal string shown exactly, without binary floating point: at least `dp` decimals, and more only when
 * they are not zeros (a balance of "10.000000000000000000" shows as 10.00, one of "0.305" as 0.305).
 */
export function formatDecimal(value: string | number | null | undefined, dp = 2): string {
  if (value === null || value === undefined || value === "") return "—";
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return text;
  const [, sign = "", int = "0", frac = ""] = match;
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const shown = frac.replace(/0+$/, "").padEnd(dp, "0");
  return shown ? `${sign}${grouped}.${shown}` : `${sign}${grouped}`;
}

export function Usd({ value }: { value: string | number | null | undefined }) {
  return <span className="num">{formatDecimal(value)} USD</span>;
}

const STATUS_TONE: Record<string, string> = {
  SUCCESS: "ok",
  DELIVERED: "ok",
  PROCESSING: "info",
  PENDING: "wait",
  EXPIRED: "muted",
  FAILED: "bad",
  DEAD: "bad",
  REFUNDED: "info",
};

export function StatusBadge({ status }: { status: string | null | undefined }) {
  const value = status ?? "UNKNOWN";
  return <span className={`badge ${STATUS_TONE[value.toUpperCase()] ?? "muted"}`}>{value}</span>;
}
