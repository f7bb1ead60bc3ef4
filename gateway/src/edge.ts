/**
 * What a process host (`@payouts/runtime`) needs to run the gateway: `startGateway` builds the HTTP edge
 * (partner and admin listeners) from its dependencies — configuration, the gateway's database, a transport
 * per service and the gateway's service signers. The host owns processes, databases and transports; the
 * gateway owns the listeners and the `gateway` schema.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { MigrationSet } from "@payouts/platform/database/migrate";

export { creditFingerprint } from "./admin/ledger-admin-routes.js";
export type { ChainVerdict } from "./audit/audit-chain.js";
export { verifyAuditChain } from "./audit/audit-store.js";
export { hashSecret, type SecretHasher } from "./auth/secret-hash.js";
export { type GatewayConfig, loadGatewayConfig, localBaseUrl } from "./gateway-config.js";
export type { GatewayDeps } from "./gateway-deps.js";
export {
  type GatewayHandle,
  type GatewayServiceSigners,
  type GatewayTransports,
  startGateway,
} from "./gateway-server.js";
// The sandbox partner of the one-process mode is written to the gateway's own tables.
export { findApp, findPartner, insertApp, insertPartner } from "./store/partner-store.js";

/** The gateway's schema (partners, apps, client secrets), migrated before the services' schemas. */
export const GATEWAY_MIGRATIONS: MigrationSet = {
  schema: "gateway",
  dir: join(dirname(fileURLToPath(import.meta.url)), "..", "migrations"),
};

// Operators and machine credentials of the admin API, managed by the `payouts` CLI and the embedded sandbox.
export { isOperatorRole, OPERATOR_ROLES, type OperatorRole } from "./admin/admin-actor.js";
export {
  type AddedOperator,
  addMachineCredential,
  addOperator,
  InvalidOperatorInput,
} from "./operators/operator-accounts.js";
export { operatorSecretBox, totpCode } from "./operators/operator-secrets.js";
export {
  disableOperator,
  findOperatorByUsername,
  listMachineCredentials,
  listOperators,
  revokeMachineCredential,
  setOperatorRole,
} from "./operators/operator-store.js";
