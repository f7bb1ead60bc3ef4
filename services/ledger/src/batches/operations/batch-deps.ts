import type { Client } from "@connectrpc/connect";
import type { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import type { LedgerDeps } from "../../operations/ledger-deps.js";
import type { BindingPricer } from "../../pricing/binding-pricer.js";
import type { StoredTransaction } from "../../store/transaction-store.js";

/** What the batch operations and workers need beyond the ledger's own dependencies. */
export interface BatchDeps extends LedgerDeps {
  /** Destination rules and name enquiry (LookupService/ResolveDestination), called as the `ledger` identity. */
  readonly lookup: Client<typeof LookupService> | undefined;
  readonly pricer: BindingPricer | undefined;
  /** Hands an item's payout, just committed as PROCESSING, to the rail (the ledger's rail submitter). */
  readonly submit: (executed: StoredTransaction) => Promise<void>;
  /** Wakes the workers after a commit that queued work. */
  readonly workQueued: () => void;
}
