/**
 * A message field the called service always sets (the run it started, the config it changed). Its absence
 * is the service's fault, never the caller's: thrown as a plain error ("ledger answered no run"), it is
 * answered 500 and logged.
 */
export function answered<T>(value: T | undefined, service: string, field: string): T {
  if (value === undefined) throw new Error(`${service} answered no ${field}`);
  return value;
}
