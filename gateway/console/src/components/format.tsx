/** Formatting shared by every view. Amounts stay decimal strings: they are shown, never computed with. */

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { hour12: false });
}

/** A duration in whole seconds as operators read it: "45 s", "12 min 5 s", "3 h 20 min", "2 d 4 h". */
export function formatAge(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86_400)} d ${Math.floor((s % 86_400) / 3600)} h`;
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

/**
 * A decimal string rounded half-up to `dp` decimals with integer arithmetic (BigInt), never through a
 * binary double: "19.096296296296296297" → "19.10". Stored values keep full precision; this is display only.
 */
export function roundDecimal(value: string, dp = 2): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return value;
  const [, sign = "", int = "0", frac = ""] = match;
  const digits = BigInt(int + frac.padEnd(dp, "0").slice(0, dp));
  const up = (frac[dp] ?? "0") >= "5" ? 1n : 0n;
  const text = (digits + up).toString().padStart(dp + 1, "0");
  const rounded = dp === 0 ? text : `${text.slice(0, -dp)}.${text.slice(-dp)}`;
  return /[1-9]/.test(rounded) ? `${sign}${rounded}` : rounded;
}

/** A USD amount as operators read it: cents, half-up; the exact value stays one hover away. */
export function Usd({ value }: { value: string | number | null | undefined }) {
  if (value === null || value === undefined || value === "") return <span className="num">—</span>;
  const exact = String(value);
  const shown = formatDecimal(roundDecimal(exact));
  return (
    <span className="num" title={formatDecimal(exact) !== shown ? `${exact} USD exactly` : undefined}>
      {shown} USD
    </span>
  );
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
