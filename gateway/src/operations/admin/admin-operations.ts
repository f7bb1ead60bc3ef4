import type { ApiOperation } from "../../api/operation.js";
import { ADMIN_LISTENER_OPERATIONS } from "./admin-listener-api.js";
import { APPROVAL_ADMIN_OPERATIONS } from "./approval-admin-api.js";
import { AUDIT_OPERATIONS } from "./audit-api.js";
import { CONSOLE_BATCH_OPERATIONS } from "./console-batch-api.js";
import { CONSOLE_OVERVIEW_OPERATIONS } from "./console-overview-api.js";
import { CONSOLE_PARTNER_OPERATIONS } from "./console-partner-api.js";
import { CONSOLE_TRANSACTION_OPERATIONS } from "./console-transaction-api.js";
import { CONSOLE_WEBHOOK_OPERATIONS } from "./console-webhook-api.js";
import { LEDGER_ADMIN_OPERATIONS } from "./ledger-admin-api.js";
import { PARTNER_ADMIN_OPERATIONS } from "./partner-admin-api.js";
import { PRICING_ADMIN_OPERATIONS } from "./pricing-admin-api.js";
import { RECONCILIATION_ADMIN_OPERATIONS } from "./reconciliation-admin-api.js";
import { OIDC_OPERATIONS, SESSION_OPERATIONS } from "./session-api.js";
import { STATEMENT_ADMIN_OPERATIONS } from "./statement-admin-api.js";

/**
 * Every operation of the admin listener, in document order. A route the listener has and this list lacks
 * (or the reverse) fails `test/gateway/admin-openapi.test.ts`.
 */
export const ADMIN_OPERATIONS: readonly ApiOperation[] = [
  ...ADMIN_LISTENER_OPERATIONS,
  ...SESSION_OPERATIONS,
  ...OIDC_OPERATIONS,
  ...PARTNER_ADMIN_OPERATIONS,
  ...PRICING_ADMIN_OPERATIONS,
  ...LEDGER_ADMIN_OPERATIONS,
  ...APPROVAL_ADMIN_OPERATIONS,
  ...STATEMENT_ADMIN_OPERATIONS,
  ...CONSOLE_OVERVIEW_OPERATIONS,
  ...CONSOLE_TRANSACTION_OPERATIONS,
  ...CONSOLE_WEBHOOK_OPERATIONS,
  ...CONSOLE_PARTNER_OPERATIONS,
  ...CONSOLE_BATCH_OPERATIONS,
  ...RECONCILIATION_ADMIN_OPERATIONS,
  ...AUDIT_OPERATIONS,
];
