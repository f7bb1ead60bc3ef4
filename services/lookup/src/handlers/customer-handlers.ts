import type { ServiceImpl } from "@connectrpc/connect";
import { requirePartnerId } from "@payouts/platform/rpc/rejection";
import { Code } from "@payouts/platform/rpc/service-error";
import type { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import { validateCustomer } from "../domain/customers/customer.js";
import { LOOKUP } from "../domain/types.js";
import { rejection, valueOrReject } from "../reasons.js";
import { findCustomer, insertCustomer, type StoredCustomer } from "../store/customer-store.js";
import { customerInputOf, customerMessage } from "./customer-message.js";
import type { LookupHandlerDeps } from "./lookup-handler-deps.js";
import { requireText } from "./request-text.js";

type CustomerHandlers = Pick<ServiceImpl<typeof LookupService>, "createCustomer" | "getCustomer">;

export function createCustomerHandlers(deps: LookupHandlerDeps): CustomerHandlers {
  return {
    async createCustomer(request) {
      const partnerId = requirePartnerId(request.partnerId);
      const fields = valueOrReject(validateCustomer(customerInputOf(request.customer)));
      const stored = await insertCustomer(deps.db, {
        ...fields,
        customer_id: deps.newCustomerId(),
        partner_id: partnerId,
        created_at: deps.now(),
      });
      return { customer: customerMessage(stored) };
    },

    async getCustomer(request) {
      const stored = await requireCustomer(deps, request.partnerId, request.customerId, Code.NotFound);
      return { customer: customerMessage(stored) };
    },
  };
}

/**
 * The partner's customer, or CUSTOMER_NOT_FOUND (also for another partner's customer): InvalidArgument
 * when a request names it, `missingCode` NotFound when it is the resource asked for.
 */
export async function requireCustomer(
  deps: LookupHandlerDeps,
  partnerId: string,
  customerId: string,
  missingCode: Code = Code.InvalidArgument,
): Promise<StoredCustomer> {
  const partner = requirePartnerId(partnerId);
  const id = requireText(customerId, "customer_id");
  const customer = await findCustomer(deps.db, partner, id);
  if (customer === undefined) throw rejection(LOOKUP.of("CUSTOMER_NOT_FOUND", id), { status: missingCode });
  return customer;
}
