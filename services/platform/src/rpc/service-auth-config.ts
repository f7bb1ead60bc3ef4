/**
 * Reads a distributed process's service credentials from the environment (service-credentials.ts):
 *   SERVICE_CALLER_KEYS   servers: `<caller>:<Ed25519 public key>,...`, the callers they accept;
 *   SERVICE_PRIVATE_KEYS  callers: `<caller>:<Ed25519 private key>,...`, the identities this process acts as.
 * A server's audience is the service it runs (its role), not configuration, and it keeps the public keys
 * of the callers the allowlist names on its RPCs only.
 * In production mode (NODE_ENV=production, set by the image and the chart) a process refuses to start
 * without the ones it needs. Elsewhere a missing value is allowed and fails closed: a server without
 * caller keys refuses every RPC but health, a caller without a key is refused by the server it calls.
 */
import type { KeyObject } from "node:crypto";
import { ConfigError, isProductionMode, loadConfig } from "../config/env-config.js";
import type { ServiceCaller } from "./caller-allowlist.js";
import {
  acceptedKeys,
  parseCallerKeys,
  parsePrivateKeys,
  type ServiceAudience,
  type ServiceTokenSigner,
  ServiceTokenVerifier,
} from "./service-credentials.js";

type Env = Readonly<Record<string, string | undefined>>;

export interface ServiceAuthConfig {
  /** Checks tokens addressed to this process's service; undefined for a process that serves none. */
  readonly verifier: ServiceTokenVerifier | undefined;
  readonly signers: ReadonlyMap<ServiceCaller, ServiceTokenSigner>;
}

export function loadServiceAuthConfig(
  env: Env,
  needs: { readonly server: ServiceAudience | undefined; readonly callers: readonly ServiceCaller[] },
): ServiceAuthConfig {
  const config = loadConfig(
    {
      callerKeys: {
        env: "SERVICE_CALLER_KEYS",
        doc: "the service callers this server accepts, <caller>:<Ed25519 public key, base64url>,...",
        parse: (raw: string): ReadonlyMap<ServiceCaller, KeyObject> => parseCallerKeys(raw),
      },
      signers: {
        env: "SERVICE_PRIVATE_KEYS",
        doc: "this process's service identities, <caller>:<Ed25519 private key, base64url>,...",
        parse: parsePrivateKeys,
      },
    },
    env,
  );
  const signers = config.signers ?? new Map<ServiceCaller, ServiceTokenSigner>();
  if (isProductionMode(env)) {
    const problems: string[] = [];
    if (needs.server !== undefined && config.callerKeys === undefined) {
      problems.push("SERVICE_CALLER_KEYS is required in production: the callers this service accepts");
    }
    const missing = needs.callers.filter((caller) => !signers.has(caller));
    if (missing.length > 0) {
      problems.push(`SERVICE_PRIVATE_KEYS is required in production with a key for ${missing.join(", ")}`);
    }
    if (problems.length > 0) throw new ConfigError(problems);
  }
  const verifier =
    needs.server !== undefined && config.callerKeys !== undefined
      ? new ServiceTokenVerifier(needs.server, acceptedKeys(config.callerKeys, needs.server))
      : undefined;
  return { verifier, signers };
}
