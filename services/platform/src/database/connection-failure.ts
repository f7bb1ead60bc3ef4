/**
 * Which database errors mean "the connection is gone or could not be had" (the server restarted, was
 * shut down, killed the session, or is not accepting connections yet), as opposed to an error about the
 * statement itself. Only these are ever retried or reported as unavailable; every other error is the
 * caller's to handle.
 */

/** SQLSTATEs of a lost or refused session: class 08 (connection exception) and the operator shutdowns. */
const LOST_SESSION_STATES = new Set([
  "57P01", // admin_shutdown: pg_terminate_backend, or a fast/smart shutdown
  "57P02", // crash_shutdown: another backend crashed, the server resets every session
  "57P03", // cannot_connect_now: starting up, shutting down, or in recovery
  "53300", // too_many_connections: the server refuses new sessions for now
]);

/** Socket-level errors of node's net layer. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EHOSTDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** node-postgres reports these without a code. */
const LOST_CONNECTION_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "is not queryable",
];

export function isConnectionFailure(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === "string" && (code.startsWith("08") || LOST_SESSION_STATES.has(code))) return true;
  if (typeof code === "string" && SOCKET_CODES.has(code)) return true;
  if (typeof message === "string" && LOST_CONNECTION_MESSAGES.some((m) => message.includes(m))) return true;
  // node ≥ 20 tries every address of a host name and reports an AggregateError of the attempts.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isConnectionFailure);
}

/**
 * The statement was refused by node-postgres before anything reached the server (the client had already
 * lost its connection), so running it again cannot run it twice.
 */
export function neverSent(error: unknown): boolean {
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === "string" && message.includes("is not queryable");
}

/**
 * Pause before attempt `attempt + 1` (attempt counts from 1): 50 ms doubling to at most 1 s, so a
 * PostgreSQL restart of a second or two is ridden out by a handful of attempts.
 */
export function reconnectDelayMs(attempt: number): number {
  return Math.min(50 * 2 ** (attempt - 1), 1_000);
}
