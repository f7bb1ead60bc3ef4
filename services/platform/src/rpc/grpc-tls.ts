/**
 * Optional mutual TLS between the services (the Helm chart's `tls.enabled`). With it, every gRPC listener
 * is an HTTP/2 TLS server that requires a client certificate signed by the shared CA, and every service
 * transport presents this process's certificate and trusts only that CA. The caller credential in the
 * metadata is checked as well: mTLS authenticates the peer process, the token says which identity calls.
 *
 *   GRPC_TLS_CA_FILE, GRPC_TLS_CERT_FILE, GRPC_TLS_KEY_FILE   PEM files; all three or none
 *   GRPC_HEALTH_PORT   with TLS: a plaintext listener serving grpc.health.v1 only, for kubelet gRPC probes
 *                      (they cannot speak TLS); 0 or unset = none
 */
import { readFileSync } from "node:fs";
import { ConfigError } from "../config/env-config.js";

export interface GrpcTls {
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
}

const FILES = { ca: "GRPC_TLS_CA_FILE", cert: "GRPC_TLS_CERT_FILE", key: "GRPC_TLS_KEY_FILE" } as const;

/** The TLS material named by the environment, or undefined when none is configured. */
export function loadGrpcTls(env: Readonly<Record<string, string | undefined>>): GrpcTls | undefined {
  const given = Object.entries(FILES).filter(([, name]) => env[name]);
  if (given.length === 0) return undefined;
  if (given.length < 3) {
    throw new ConfigError([`${Object.values(FILES).join(", ")} go together: set all three or none`]);
  }
  const problems: string[] = [];
  const read = (name: string): Buffer => {
    try {
      return readFileSync(env[name] as string);
    } catch (error) {
      problems.push(`${name}=${env[name]}: ${(error as Error).message}`);
      return Buffer.alloc(0);
    }
  };
  const tls = { ca: read(FILES.ca), cert: read(FILES.cert), key: read(FILES.key) };
  if (problems.length > 0) throw new ConfigError(problems);
  return tls;
}
