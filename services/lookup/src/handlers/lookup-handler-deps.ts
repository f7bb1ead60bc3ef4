import type { Database } from "@payouts/platform/database/database";
import type { NameEnquiry } from "../domain/name-enquiry.js";

export interface LookupHandlerDeps {
  readonly db: Database;
  readonly nameEnquiry: NameEnquiry;
  readonly now: () => Date;
  readonly newCustomerId: () => string;
}
