import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Customer, CustomerSchema } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import type { CustomerInput } from "../domain/customers/customer.js";
import type { StoredCustomer } from "../store/customer-store.js";

export function customerMessage(customer: StoredCustomer): Customer {
  return create(CustomerSchema, {
    customerId: customer.customer_id,
    partnerId: customer.partner_id,
    nameFirst: customer.name_first,
    nameLast: customer.name_last,
    country: customer.country,
    icNumber: customer.ic_number,
    icType: customer.ic_type,
    phone: customer.phone,
    email: customer.email,
    externalReference: customer.external_reference,
    createdAt: timestampFromDate(customer.created_at),
  });
}

/** The fields a partner sent, for validation (ids and timestamps are the service's to set). */
export function customerInputOf(customer: Customer | undefined): CustomerInput {
  return {
    name_first: customer?.nameFirst,
    name_last: customer?.nameLast,
    country: customer?.country,
    ic_number: customer?.icNumber,
    ic_type: customer?.icType,
    phone: customer?.phone,
    email: customer?.email,
    external_reference: customer?.externalReference,
  };
}
