import type { RouteModule } from "../routes/route-module.js";
import { registerApprovalAdminRoutes } from "./approval-admin-routes.js";
import { registerAuditAdminRoutes } from "./audit-admin-routes.js";
import { registerConsoleBatchRoutes } from "./console-batch-routes.js";
import { registerConsoleOverviewRoutes } from "./console-overview-routes.js";
import { registerConsolePartnerRoutes } from "./console-partner-routes.js";
import { registerConsoleTransactionRoutes } from "./console-transaction-routes.js";
import { registerConsoleWebhookRoutes } from "./console-webhook-routes.js";
import { registerLedgerAdminRoutes } from "./ledger-admin-routes.js";
import { registerPartnerAdminRoutes } from "./partner-admin-routes.js";
import { registerPricingAdminRoutes } from "./pricing-admin-routes.js";
import { registerReconciliationAdminRoutes } from "./reconciliation-admin-routes.js";
import { registerSessionRoutes } from "./session-routes.js";
import { registerStatementAdminRoutes } from "./statement-admin-routes.js";

/** Every admin route group, in registration order. */
export const ADMIN_ROUTE_MODULES: readonly RouteModule[] = [
  registerSessionRoutes,
  registerPartnerAdminRoutes,
  registerPricingAdminRoutes,
  registerLedgerAdminRoutes,
  registerApprovalAdminRoutes,
  registerStatementAdminRoutes,
  registerConsoleOverviewRoutes,
  registerConsoleTransactionRoutes,
  registerConsolePartnerRoutes,
  registerConsoleWebhookRoutes,
  registerConsoleBatchRoutes,
  registerReconciliationAdminRoutes,
  registerAuditAdminRoutes,
];
