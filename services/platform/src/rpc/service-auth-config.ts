/**
 * Reads a distributed process's service credentials from the environment:
 *   SERVICE_CALLER_DIGESTS  servers: `<caller>:<sha256 hex of its token>,...`, the callers they accept;
 *   SERVICE_TOKENS          callers: `<caller>.<secret>,...`, the identities this process acts as.
 * In production mode (NODE_ENV=production, set by the image and the chart) a process refuses to start
 * without the ones it needs. Elsewhere a missing value is allowed and fails closed: a server without
 * digests refuses every RPC but health, a caller without a token is refused by the server it calls.
 */
import { ConfigError, isProductionMode, loadConfig } from "../config/env-config.js";
import type { ServiceCaller } from "./caller-allowlist.js";
import { type CallerDigests, parseCallerDigests, parseServiceTokens } from "./service-credentials.js";

type Env = Readonly<Record<string, string | undefined>>;

export interface ServiceAuthConfig {
  readonly digests: CallerDigests | undefined;
  readonly tokens: ReadonlyMap<ServiceCaller, string>;
}

export function loadServiceAuthConfig(
  env: Env,
  needs: { readonly server: boolean; readonly callers: readonly ServiceCaller[] },
): ServiceAuthConfig {
  const config = loadConfig(
    {
      digests: {
        env: "SERVICE_CALLER_DIGESTS",
        doc: "the service callers this server accepts, <caller>:<sha256 hex of its token>,...",
        parse: parseCallerDigests,
      },
      tokens: {
        env: "SERVICE_TOKENS",
        doc: "this process's service credentials, <caller>.<secret>,...",
        parse: parseServiceTokens,
      },
    },
    env,
  );
  const tokens = config.tokens ?? new Map<ServiceCaller, string>();
  if (isProductionMode(env)) {
    const problems: string[] = [];
    if (needs.server && config.digests === undefined) {
      problems.push("SERVICE_CALLER_DIGESTS is required in production: the callers this service accepts");
    }
    const missing = needs.callers.filter((caller) => !tokens.has(caller));
    if (missing.length > 0) {
      problems.push(`SERVICE_TOKENS is required in production with a token for ${missing.join(", ")}`);
    }
    if (problems.length > 0) throw new ConfigError(problems);
  }
  return { digests: config.digests, tokens };
}
