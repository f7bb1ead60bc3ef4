/**
 * Calling a service as one of the platform's callers, the way the distributed processes do: a service
 * module behind the real `startGrpcServer` with service authentication, and clients that sign their calls
 * as a named caller (or carry no credential at all).
 */
import type { DescService } from "@bufbuild/protobuf";
import { type Client, type Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createLogger } from "@payouts/platform/logging/logger";
import type { ServiceCaller } from "@payouts/platform/rpc/caller-allowlist";
import { type GrpcServerHandle, startGrpcServer } from "@payouts/platform/rpc/grpc-server";
import type { GrpcTls } from "@payouts/platform/rpc/grpc-tls";
import {
  type GeneratedCredentials,
  type ServiceAudience,
  signerOf,
  transportSignedBy,
  verifierOf,
} from "@payouts/platform/rpc/service-credentials";
import type { ServiceModule } from "@payouts/platform/service-module";

/** The gRPC code a call ended with, or "OK". */
export async function codeOf(call: Promise<unknown>): Promise<Code | "OK"> {
  try {
    await call;
    return "OK";
  } catch (error) {
    return ConnectError.from(error).code;
  }
}

/** `module` behind an authenticating gRPC listener on a free loopback port, as the service `name`. */
export function listenAuthenticated(options: {
  readonly name: ServiceAudience;
  readonly module: Pick<ServiceModule, "serviceNames" | "routes">;
  readonly credentials: GeneratedCredentials;
  readonly tls?: GrpcTls;
}): Promise<GrpcServerHandle> {
  return startGrpcServer({
    name: options.name,
    port: 0,
    serviceNames: options.module.serviceNames,
    routes: (router) => options.module.routes(router),
    auth: { verifier: verifierOf(options.credentials, options.name) },
    tls: options.tls,
    logger: createLogger({ service: options.name, level: "silent" }),
  });
}

/** A client of `service` at the service `audience`, signed as `caller`; anonymous without one. */
export function clientAs<S extends DescService>(
  service: S,
  transport: Transport,
  credentials: GeneratedCredentials,
  audience: ServiceAudience,
  caller?: ServiceCaller,
): Client<S> {
  return createClient(
    service,
    caller === undefined ? transport : transportSignedBy(transport, signerOf(credentials, caller), audience),
  );
}
