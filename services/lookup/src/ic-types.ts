/** Public entry point: the identity document types a sender may declare, which the API documents as an enum. */
export { IC_TYPE_CODES } from "./domain/customers/customer.js";
