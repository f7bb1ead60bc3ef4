import { type Logger, pino } from "pino";

export type { Logger };

/** Paths that may carry secrets or personal data; their values never reach a log line. */
export const REDACTED_PATHS = [
  "authorization",
  "*.authorization",
  "headers.authorization",
  "req.headers.authorization",
  "*.secret",
  "*.client_secret",
  "*.password",
  "*.token",
  "*.payment_destination",
  "*.account_no",
  "*.ic_number",
  "*.phone",
  "*.email",
];

export function createLogger(options: { service: string; level?: string }): Logger {
  return pino({
    level: options.level ?? "info",
    base: { service: options.service },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: "message",
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  });
}
