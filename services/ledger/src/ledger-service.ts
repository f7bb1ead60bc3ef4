import { createClient } from "@connectrpc/connect";
import { createPeriodicTask } from "@payouts/platform/background/periodic-task";
import type { MigrationSet } from "@payouts/platform/database/migrate";
import { packageMigrations } from "@payouts/platform/database/package-migrations";
import { loadEventSigner } from "@payouts/platform/events/event-signing-config";
import type { ServiceContext, ServiceModule } from "@payouts/platform/service-module";
import { BatchService } from "@payouts/proto/payouts/ledger/v1/batches_pb";
import { LedgerAdminService } from "@payouts/proto/payouts/ledger/v1/ledger_admin_pb";
import { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { ReconciliationService } from "@payouts/proto/payouts/ledger/v1/reconciliation_pb";
import { StatementService } from "@payouts/proto/payouts/ledger/v1/statements_pb";
import { LookupService } from "@payouts/proto/payouts/lookup/v1/lookup_pb";
import type { BatchDeps } from "./batches/operations/batch-deps.js";
import { createBatchWorkers } from "./batches/workers/batch-workers.js";
import { loadLedgerConfig } from "./config.js";
import { createBatchHandlers } from "./handlers/batch-handlers.js";
import { createLedgerAdminHandlers } from "./handlers/ledger-admin-handlers.js";
import { createLedgerHandlers } from "./handlers/ledger-handlers.js";
import { createReconciliationHandlers } from "./handlers/reconciliation-handlers.js";
import { createStatementHandlers } from "./handlers/statement-handlers.js";
import { closeDueDays } from "./operations/daily-statements.js";
import { expirePending } from "./operations/expire-pending.js";
import type { LedgerDeps } from "./operations/ledger-deps.js";
import { createOutboxRelay } from "./outbox/outbox-relay.js";
import { createPricingServicePricer } from "./pricing/pricing-service-pricer.js";
import { failOverdueSubmissions } from "./rail/processing-timeout.js";
import { createRailServicePayoutRail } from "./rail/rail-service-payout-rail.js";
import { createRailSubmitter } from "./rail/rail-submitter.js";
import { createReconciliationScheduler } from "./rail/reconciliation-scheduler.js";
import { createRailServiceSettlementSource } from "./rail/settlement-source.js";
import { createLedgerRetention } from "./retention/ledger-retention.js";
import type { StoredTransaction } from "./store/transaction-store.js";
import { type OpenBreaksGauge, startOpenBreaksGauge } from "./telemetry/open-breaks-gauge.js";
import { type OutboxLagGauge, startOutboxLagGauge } from "./telemetry/outbox-lag-gauge.js";

export const LEDGER_MIGRATIONS: MigrationSet = packageMigrations("ledger", import.meta.url);

/**
 * The ledger: transactions, the double-entry book, idempotent payout execution, daily statements,
 * reconciliation against the rail, bulk payouts (src/batches), and ten background loops — the outbox relay,
 * the rail resubmission loop, the PROCESSING timeout, the PENDING expiry sweeper, the retention job, the
 * statement closer, the reconciliation scheduler and the batch workers (validation, fan-out, expiry).
 */
export function createLedgerService(ctx: ServiceContext): ServiceModule {
  const config = loadLedgerConfig(ctx.env);
  const logger = ctx.logger;
  const signer = loadEventSigner(ctx.env);
  if (!signer)
    logger.warn("EVENT_SIGNING_KEY is not set: events are published unsigned, and dispatchers refuse them");
  const relay = createOutboxRelay({
    db: ctx.db,
    bus: ctx.bus,
    logger,
    pollMs: config.outboxPollMs,
    batchSize: config.outboxBatchSize,
    leaseMs: config.outboxLeaseMs,
    signer,
  });
  const deps: LedgerDeps = {
    db: ctx.db,
    config,
    logger,
    now: ctx.now ?? (() => new Date()),
    committed: () => relay.wake(),
  };
  const rail = ctx.transports.rail
    ? createRailServicePayoutRail(ctx.transports.rail, config.railSubmitTimeoutMs)
    : undefined;
  const settlements = ctx.transports.rail
    ? createRailServiceSettlementSource(
        config.railName,
        ctx.transports.rail,
        config.reconciliationReadTimeoutMs,
      )
    : undefined;
  const pricer = ctx.transports.pricing ? createPricingServicePricer(ctx.transports.pricing) : undefined;
  const submitter = createRailSubmitter(deps, rail);
  // Hands a payout just executed to the rail and never throws: should the submission's own bookkeeping
  // fail, the resubmission loop picks the payout up.
  const submitInBackground =
    (what: string) =>
    (executed: StoredTransaction): Promise<void> =>
      submitter.submitExecuted(executed).catch((error: unknown) => {
        logger.error(
          { tx_id: executed.txId, err: error },
          `${what} submission bookkeeping failed; the retry loop takes over`,
        );
      });
  const railRetry = createPeriodicTask({
    name: "rail-resubmission",
    intervalMs: config.railRetryMs,
    logger,
    run: async () => {
      await submitter.retryDue();
    },
  });
  const processingTimeout = createPeriodicTask({
    name: "processing-timeout",
    intervalMs: config.expirySweepMs,
    logger,
    run: async () => {
      await failOverdueSubmissions(deps, rail);
    },
  });
  const sweeper = createPeriodicTask({
    name: "pending-expiry",
    intervalMs: config.expirySweepMs,
    logger,
    run: async () => {
      await expirePending(deps);
    },
  });
  const handlers = createLedgerHandlers(deps, {
    rail,
    pricer,
    afterExecute: submitInBackground("payout"),
  });
  const lookup = ctx.transports.lookup ? createClient(LookupService, ctx.transports.lookup) : undefined;
  let batchWorkers: ReturnType<typeof createBatchWorkers> = [];
  const batchDeps: BatchDeps = {
    ...deps,
    lookup,
    pricer,
    submit: submitInBackground("batch item"),
    workQueued: () => {
      for (const worker of batchWorkers) worker.wake();
    },
  };
  batchWorkers = createBatchWorkers(batchDeps, {
    intervalMs: config.batchWorkIntervalMs,
    leaseMs: config.batchWorkLeaseMs,
    batchSize: 50,
    concurrency: 8,
    callTimeoutMs: config.batchCallTimeoutMs,
  });
  const batchHandlers = createBatchHandlers(batchDeps);
  const adminHandlers = createLedgerAdminHandlers(deps);
  const statementHandlers = createStatementHandlers(deps);
  const statementCloser = createPeriodicTask({
    name: "statement-close",
    intervalMs: config.statementCloseIntervalMs,
    logger,
    run: async () => {
      await closeDueDays(deps.db, deps.now(), config.statementCloseGraceMs);
    },
  });
  const retention = createLedgerRetention({ db: ctx.db, env: ctx.env, logger, now: deps.now });
  const reconciliationHandlers = createReconciliationHandlers(deps, settlements);
  const reconciliation =
    settlements && config.reconciliationIntervalMs > 0
      ? createReconciliationScheduler(deps, settlements, config.reconciliationIntervalMs)
      : undefined;
  const tasks = [
    relay,
    railRetry,
    processingTimeout,
    sweeper,
    retention,
    statementCloser,
    ...batchWorkers,
    ...(reconciliation ? [reconciliation] : []),
  ];
  let lagGauge: OutboxLagGauge | undefined;
  let breaksGauge: OpenBreaksGauge | undefined;
  return {
    name: "ledger",
    serviceNames: [
      LedgerService.typeName,
      LedgerAdminService.typeName,
      StatementService.typeName,
      ReconciliationService.typeName,
      BatchService.typeName,
    ],
    migrations: LEDGER_MIGRATIONS,
    routes: (router) => {
      router.service(LedgerService, handlers);
      router.service(LedgerAdminService, adminHandlers);
      router.service(StatementService, statementHandlers);
      router.service(ReconciliationService, reconciliationHandlers);
      router.service(BatchService, batchHandlers);
    },
    async start() {
      for (const task of tasks) task.start();
      lagGauge = startOutboxLagGauge(ctx.db, logger);
      breaksGauge = startOpenBreaksGauge(ctx.db, logger, config.railName);
    },
    async stop() {
      lagGauge?.stop();
      breaksGauge?.stop();
      for (const task of tasks) await task.stop();
    },
  };
}
