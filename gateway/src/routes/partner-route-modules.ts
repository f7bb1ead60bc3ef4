import { registerBatchRoutes } from "./batch-routes.js";
import { registerDayTransactionRoutes } from "./day-transactions-routes.js";
import { registerDocsRoutes } from "./docs-routes.js";
import { registerLookupRoutes } from "./lookup-routes.js";
import { registerPricingRoutes } from "./pricing-routes.js";
import { registerRailCallbackRoutes } from "./rail-callback-routes.js";
import type { RouteModule } from "./route-module.js";
import { registerStatementDayRoutes } from "./statement-day-routes.js";
import { registerStatementRoutes } from "./statement-routes.js";
import { registerTransactionRoutes } from "./transaction-routes.js";
import { registerWebhookRoutes } from "./webhook-routes.js";

/** Every partner route group, in registration order. */
export const PARTNER_ROUTE_MODULES: readonly RouteModule[] = [
  registerLookupRoutes,
  registerPricingRoutes,
  registerWebhookRoutes,
  registerTransactionRoutes,
  registerBatchRoutes,
  registerStatementRoutes,
  registerStatementDayRoutes,
  registerDayTransactionRoutes,
  registerRailCallbackRoutes,
  registerDocsRoutes,
];
