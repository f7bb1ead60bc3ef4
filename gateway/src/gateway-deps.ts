import type { Client } from "@connectrpc/connect";
import type { Database } from "@payouts/platform/database/database";
import type { Logger } from "@payouts/platform/logging/logger";
import type { BatchService } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import type { LedgerAdminService } from "@payouts/proto/payouts/ledger/v1/ledger_admin_pb";
import type { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import type { ReconciliationService } from "@payouts/proto/payouts/ledger/v1/reconciliation_pb";
import type { StatementService } from "@payouts/proto/payouts/ledger/v1/statements_pb";
import type { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import type { PricingService } from "@payouts/proto/payouts/pricing/v1/pricing_pb";
import type { RailService } from "@payouts/proto/payouts/rail/v1/rail_pb";
import type { WebhookAdminService } from "@payouts/proto/payouts/webhooks/v1/webhooks_admin_pb";
import type { WebhookService } from "@payouts/proto/payouts/webhooks/v1/webhooks_pb";
import type { CredentialVerifier } from "./auth/credential-verifier.js";
import type { GatewayConfig } from "./gateway-config.js";
import type { OidcFetch } from "./operators/oidc-sign-in.js";

export interface ServiceClients {
  readonly lookup: Client<typeof LookupService>;
  readonly pricing: Client<typeof PricingService>;
  readonly ledger: Client<typeof LedgerService>;
  /** The ledger's daily statements (partners read days; operators set the time zone). */
  readonly statements: Client<typeof StatementService>;
  readonly webhooks: Client<typeof WebhookService>;
  readonly rail: Client<typeof RailService>;
  /** Operators' reads across partners: only the admin identity may call them (caller-allowlist.ts). */
  readonly ledgerAdmin: Client<typeof LedgerAdminService>;
  readonly webhooksAdmin: Client<typeof WebhookAdminService>;
  /** Bulk payouts (the ledger's BatchService); the admin listener may read, list and cancel any partner's. */
  readonly batches: Client<typeof BatchService>;
  /** Reconciliation against the rail, operators only. */
  readonly reconciliation: Client<typeof ReconciliationService>;
}

/** Everything route modules may use. The gateway holds no business rules: it reads JSON, calls services, renders. */
export interface GatewayDeps {
  readonly db: Database;
  /** Service clients acting as this listener's identity: "gateway" (partner) or "gateway-admin" (admin). */
  readonly clients: ServiceClients;
  /** The ledger as caller "gateway-rail": only POST /callbacks/rail uses it, to record a verified result. */
  readonly railCallbackLedger: Client<typeof LedgerService>;
  readonly verifier: CredentialVerifier;
  readonly logger: Logger;
  readonly config: GatewayConfig;
  /** The fetch the OpenID Connect client uses (tests put a man in the middle); the global one otherwise. */
  readonly oidcFetch?: OidcFetch;
}
