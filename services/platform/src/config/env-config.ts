/**
 * Typed configuration read once from the environment at start. Every key declares its env name,
 * a parser and a default; all problems are reported together so a bad deployment fails fast with one
 * clear message instead of one restart per mistake.
 */

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n  - ${problems.join("\n  - ")}`);
    this.name = "ConfigError";
  }
}

export interface ConfigKey<T> {
  readonly env: string;
  readonly doc: string;
  readonly parse: (raw: string) => T;
  readonly default?: T;
  /** When true and no default exists, an absent variable is an error. */
  readonly required?: boolean;
}

type Env = Record<string, string | undefined>;
type Spec = Record<string, ConfigKey<unknown>>;
type ValueOf<K> = K extends ConfigKey<infer T> ? T : never;
export type ConfigOf<S extends Spec> = {
  readonly [P in keyof S]: S[P] extends { required: true } | { default: unknown }
    ? ValueOf<S[P]>
    : ValueOf<S[P]> | undefined;
};

export function loadConfig<S extends Spec>(spec: S, env: Env = process.env): ConfigOf<S> {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, key] of Object.entries(spec)) {
    const raw = env[key.env];
    if (raw === undefined || raw === "") {
      if (key.default !== undefined) out[name] = key.default;
      else if (key.required) problems.push(`${key.env} is required: ${key.doc}`);
      continue;
    }
    try {
      out[name] = key.parse(raw);
    } catch (error) {
      problems.push(`${key.env}=${JSON.stringify(redactable(key.env, raw))}: ${(error as Error).message}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return out as ConfigOf<S>;
}

/** Production mode: NODE_ENV=production (the image and the Helm chart set it). Secrets must then be given. */
export function isProductionMode(env: Readonly<Record<string, string | undefined>>): boolean {
  return env.NODE_ENV === "production";
}

function redactable(envName: string, raw: string): string {
  return /SECRET|TOKEN|PASSWORD|PRIVATE_KEY|SIGNING_KEY|DATABASE_URL/i.test(envName) ? "<redacted>" : raw;
}

export const parse = {
  string: (raw: string): string => raw,
  port: (raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error("expected a port number 0-65535");
    return n;
  },
  nonNegativeInt: (raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new Error("expected a non-negative integer");
    return n;
  },
  positiveInt: (raw: string): number => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1) throw new Error("expected a positive integer");
    return n;
  },
  boolean: (raw: string): boolean => {
    const v = raw.trim().toLowerCase();
    if (["1", "true", "yes", "on"].includes(v)) return true;
    if (["0", "false", "no", "off"].includes(v)) return false;
    throw new Error("expected true or false");
  },
  list: (raw: string): string[] =>
    raw
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0),
  logLevel: (raw: string): string => {
    const levels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
    if (!levels.includes(raw)) throw new Error(`expected one of ${levels.join(", ")}`);
    return raw;
  },
};
