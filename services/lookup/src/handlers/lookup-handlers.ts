import type { ServiceImpl } from "@connectrpc/connect";
import type { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import { createCustomerHandlers } from "./customer-handlers.js";
import { createDestinationHandlers } from "./destination-handlers.js";
import type { LookupHandlerDeps } from "./lookup-handler-deps.js";

/** Every RPC of payouts.lookup.v1.LookupService. */
export function createLookupHandlers(deps: LookupHandlerDeps): ServiceImpl<typeof LookupService> {
  return {
    ...createDestinationHandlers(deps),
    ...createCustomerHandlers(deps),
  };
}
