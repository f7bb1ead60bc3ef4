/**
 * The module of a service that only answers calls: no background work, so starting and stopping it do
 * nothing, and it serves one gRPC service.
 */

import type { DescService } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { MigrationSet } from "./database/migrate.js";
import type { ServiceModule } from "./service-module.js";

export function rpcOnlyModule<S extends DescService>(options: {
  readonly name: string;
  readonly service: S;
  readonly migrations: MigrationSet;
  readonly handlers: Partial<ServiceImpl<S>>;
}): ServiceModule {
  const { name, service, migrations, handlers } = options;
  return {
    name,
    serviceNames: [service.typeName],
    migrations,
    routes: (router) => router.service(service, handlers),
    start: async () => {},
    stop: async () => {},
  };
}
