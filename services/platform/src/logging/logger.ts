import { isSpanContextValid, trace } from "@opentelemetry/api";
import { type DestinationStream, type Logger, pino } from "pino";

export type { Logger };

/** Keys whose values are secrets: never logged, whatever object they sit in. */
const SECRET_KEYS = [
  "authorization",
  "cookie",
  "secret",
  "client_secret",
  "clientSecret",
  "password",
  "token",
  "admin_token",
  "adminToken",
  "signature",
  "x-rail-signature",
  "basic_auth",
  "basicAuth",
];

/** Keys whose values are personal data: never logged. */
const PERSONAL_KEYS = [
  "ic_number",
  "icNumber",
  "phone",
  "email",
  "name_first",
  "name_last",
  "nameFirst",
  "nameLast",
  "sender",
  "recipient",
  "qr_string",
  "qrString",
  "wallet_identifier",
  "walletIdentifier",
];

/** Keys holding an account number or payment key: logged masked to the last four characters. */
const MASKED_KEYS = new Set([
  "account_no",
  "accountNo",
  "payment_destination",
  "paymentDestination",
  "account_number",
  "accountNumber",
  "destination",
]);

// @pinojs/redact matches a key at one depth per path, so each key is listed at the depths our log
// objects reach (a request body inside `req` inside a log object is three levels deep).
const DEPTHS = ["", "*.", "*.*.", "*.*.*."];

/** Paths whose values never reach a log line as they are. */
export const REDACTED_PATHS = [...SECRET_KEYS, ...PERSONAL_KEYS, ...MASKED_KEYS].flatMap((key) =>
  DEPTHS.map((prefix) => `${prefix}${/^[A-Za-z_]\w*$/.test(key) ? key : `["${key}"]`}`),
);

/** `0123456789` → `******6789`; anything that is not a plain string is redacted whole. */
export function maskAccount(value: unknown): string {
  if (typeof value !== "string") return "[redacted]";
  const visible = value.length > 8 ? 4 : 0;
  return `${"*".repeat(Math.max(value.length - visible, 1))}${value.slice(value.length - visible)}`;
}

function censor(value: unknown, path: string[]): string {
  return MASKED_KEYS.has(path.at(-1) ?? "") ? maskAccount(value) : "[redacted]";
}

/** trace_id/span_id of the active span, so a log line can be found from its trace and back. */
function traceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const ctx = span.spanContext();
  return isSpanContextValid(ctx) ? { trace_id: ctx.traceId, span_id: ctx.spanId } : {};
}

export function createLogger(options: {
  service: string;
  level?: string;
  /** Where lines go; stdout by default (tests capture them). */
  destination?: DestinationStream;
}): Logger {
  const settings = {
    level: options.level ?? "info",
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: "message",
    formatters: { level: (label: string) => ({ level: label }) },
    mixin: traceFields,
    redact: { paths: REDACTED_PATHS, censor },
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
