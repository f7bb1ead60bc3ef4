/**
 * `npm run chaos [-- --short]`: the fault-injection suite. The distributed topology (built output, one
 * process per service) on a PostgreSQL and a Kafka of its own, steady payouts with a signed-webhook
 * receiver, faults injected one after the other, then an audit of the ledger and the receiver's records.
 * See README.md here.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildIsStale } from "../bench/local-infra.js";
import {
  type DistributedTopology,
  type ExitRecord,
  type Role,
  startDistributedTopology,
} from "../e2e/support/distributed-topology.js";
import { createCleanupStack } from "../support/cleanup-stack.js";
import {
  type AuditReport,
  auditRun,
  type FaultPhase,
  type Finding,
  isAccepted,
  requiredNotifications,
} from "./audit.js";
import { findingLines, markdownReport, type RunSummary, resumptionTable, textTable } from "./audit-report.js";
import { runBatchUnderKills } from "./batch-fault.js";
import { type ChaosInfra, durabilitySettings, startChaosInfra, withClient } from "./chaos-infra.js";
import {
  type ChaosOptions,
  type Fault,
  faultName,
  faultPlan,
  parseChaosOptions,
  RESUMPTION_LIMITS,
  UsageError,
} from "./chaos-options.js";
import { ChaosReceiver } from "./chaos-receiver.js";
import { backlog, eventTimings, executedPayouts, partnerBalances } from "./ledger-snapshot.js";
import { type PartnerAccount, PayoutDriver } from "./payout-driver.js";
import { measureResumption, type ResumptionMark } from "./resumption.js";

const chaosDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(chaosDir, "..", "..");
const outDir = join(repoRoot, ".cache", "chaos");
const logDir = join(outDir, "logs");

/** Settings of every process: fast settlement, quick webhook retries, quotes that outlive any outage. */
const TOPOLOGY_ENV: Record<string, string> = {
  LOG_LEVEL: process.env.CHAOS_LOG_LEVEL ?? "warn",
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  // 0, 0.5, 1, 2 s, then every 3 s: about two minutes of attempts, longer than any fault here.
  WEBHOOK_RETRY_SCHEDULE_MS: ["0", "500", "1000", "2000", ...Array(40).fill("3000")].join(","),
  SANDBOX_AUTO_SETTLE_MS: "300",
  QUOTE_TTL_MS: "3600000",
  RAIL_RETRY_INTERVAL_MS: "500",
  // A dead consumer's partitions go to its replacement, and a consumer that lost its membership in a
  // broker restart gets them back, 3 s after its last heartbeat (the suite's broker accepts sessions
  // from 1 s, deploy/local/kafka-up.sh).
  KAFKA_SESSION_TIMEOUT_MS: "3000",
};

const FX_RATE_BRL = "5.4";
const CREDIT_USD = "1000000";
const SENDER = {
  name_first: "Ana",
  name_last: "Souza",
  country: "BR",
  ic_type: "CPF",
  ic_number: "529.982.247-25",
  phone: "+55 11 98765-4321",
  email: "ana.souza@example.com",
};

const t0 = performance.now();
const elapsed = () => (performance.now() - t0) / 1000;
const log = (line: string) => process.stderr.write(`[chaos ${elapsed().toFixed(0).padStart(4)} s] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Cleanups run in reverse order, once, on success, failure, signal or the time limit. */
const { cleanups, cleanUp } = createCleanupStack(log);

const timeline: Array<{ fault: string; at: number; note: string }> = [];
let currentFault = "setup";
function note(text: string): void {
  timeline.push({ fault: currentFault, at: elapsed(), note: text });
  log(`[${currentFault}] ${text}`);
}

async function main(): Promise<number> {
  const options = parseChaosOptions(process.argv.slice(2));
  const startedAt = new Date();
  setTimeout(() => {
    log(`time limit of ${options.runLimitSeconds} s reached: stopping`);
    void cleanUp().then(() => process.exit(1));
  }, options.runLimitSeconds * 1000).unref();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping`);
      void cleanUp().then(() => process.exit(130));
    });
  }
  rmSync(logDir, { recursive: true, force: true });
  mkdirSync(logDir, { recursive: true });
  log(`${options.mode} run`);

  if (buildIsStale(repoRoot)) {
    log("services/runtime/dist is missing or older than the sources: npm run build");
    execFileSync("npm", ["run", "build"], { cwd: repoRoot, stdio: ["ignore", "ignore", "inherit"] });
  }

  const infra = await startChaosInfra(repoRoot, log);
  cleanups.push({
    name: "PostgreSQL and Kafka",
    run: () => (options.keepInfra ? log(`left running in ${infra.localDir}`) : infra.down()),
  });
  const settings = await durabilitySettings(infra.databaseUrl);
  if (Object.values(settings).some((value) => value !== "on")) {
    throw new Error(`PostgreSQL is not durable: ${JSON.stringify(settings)}`);
  }

  const receiver = new ChaosReceiver();
  await receiver.start();
  cleanups.push({ name: "receiver", run: () => receiver.close() });

  log("starting the distributed topology");
  const topology = await startDistributedTopology({
    databaseUrl: infra.databaseUrl,
    kafkaBrokers: infra.kafkaBrokers,
    env: TOPOLOGY_ENV,
  });
  let topologyStopped = false;
  const stopTopology = async () => {
    if (topologyStopped) return;
    topologyStopped = true;
    await topology.stop();
  };
  cleanups.push({ name: "topology", run: stopTopology });
  note("topology ready");

  const plan = faultPlan(options);
  const runId = randomBytes(4).toString("hex");
  const accounts = await seed(topology, receiver, plan, runId);
  const supervisor = new Supervisor(topology);
  cleanups.push({ name: "supervisor", run: () => supervisor.stop() });

  const driver = new PayoutDriver(
    {
      workers: options.workers,
      thinkMs: options.thinkMs,
      failEvery: options.failEvery,
      refundEvery: options.refundEvery,
      requestTimeoutMs: 10_000,
      giveUpMs: 150_000,
    },
    topology.adminToken,
    runId,
    log,
  );
  driver.gateways = topology.gateways().slice(0, 1);
  receiver.onAccepted((n) => {
    if (n.kind === "success" && n.txId) driver.offerRefund(n.txId);
  });
  driver.start();
  cleanups.push({ name: "load", run: () => driver.abort() });

  const phases: FaultPhase[] = [];
  const marks: ResumptionMark[] = [];
  const batchFindings: Finding[] = [];
  for (const [index, fault] of plan.entries()) {
    currentFault = faultName(fault);
    const account = accounts[index]!;
    phases.push({
      fault: currentFault,
      partnerId: account.partnerId,
      creditedUsd: CREDIT_USD,
      startedAt: Date.now(),
    });
    driver.usePartner(account);
    note(`begins (partner ${account.partnerId})`);
    await inject(fault, options, {
      topology,
      infra,
      receiver,
      driver,
      supervisor,
      marks,
      batchFindings,
      account,
    });
  }

  currentFault = "recovery";
  note("load stops; waiting for the payouts to settle and the webhooks to arrive");
  await driver.stopPayouts();
  const quiet = await waitForQuiescence(infra, receiver, driver, options.quiescenceSeconds);
  note(quiet ? "quiescent" : `not quiescent after ${options.quiescenceSeconds} s; auditing what is there`);
  await driver.stopRefunds();

  const { payouts, balances, events } = await withClient(infra.databaseUrl, async (client) => ({
    payouts: await executedPayouts(client),
    balances: await partnerBalances(client),
    events: await eventTimings(client),
  }));
  supervisor.stop();
  note("stopping the topology (every process must exit 0)");
  await stopTopology();
  saveLogs(topology);

  const audited = auditRun({
    phases,
    payouts,
    balances,
    notifications: receiver.notifications,
    exits: topology.exits().map((e) => ({ ...e })),
    resumptions: marks.map((mark) =>
      measureResumption(mark, receiver.notifications.filter(isAccepted), events),
    ),
  });
  const report: AuditReport = {
    ...audited,
    findings: [...audited.findings, ...batchFindings],
    passed: audited.passed && batchFindings.length === 0,
  };
  const summary: RunSummary = {
    mode: options.mode,
    startedAt: startedAt.toISOString(),
    durationSeconds: Math.round(elapsed()),
    settings: {
      ...Object.fromEntries(Object.entries(settings).map(([k, v]) => [`postgres ${k}`, v])),
      "topology env": JSON.stringify(TOPOLOGY_ENV),
      workers: String(options.workers),
    },
    load: {
      ...Object.fromEntries([...driver.stats.entries()].sort(([a], [b]) => a.localeCompare(b))),
      "notifications received": receiver.notifications.length,
      "notifications accepted": receiver.notifications.filter(isAccepted).length,
      "notifications refused with 500": receiver.notifications.filter((n) => n.answer === 500).length,
    },
    timeline,
  };
  writeReports(report, summary);
  printReport(report, summary);
  return report.passed ? 0 : 1;
}

interface FaultContext {
  readonly topology: DistributedTopology;
  readonly infra: ChaosInfra;
  readonly receiver: ChaosReceiver;
  readonly driver: PayoutDriver;
  readonly supervisor: Supervisor;
  /** Where the resumption clocks of the faults held to a limit start. */
  readonly marks: ResumptionMark[];
  /** What the bulk payout fault's own audit found. */
  readonly batchFindings: Finding[];
  /** The phase's partner. */
  readonly account: PartnerAccount;
}

async function inject(fault: Fault, options: ChaosOptions, ctx: FaultContext): Promise<void> {
  const { topology, infra, receiver, driver, supervisor, marks, batchFindings, account } = ctx;
  const seconds = (s: number) => sleep(s * 1000);
  switch (fault.kind) {
    case "baseline":
      await seconds(options.baselineSeconds);
      return;
    case "kill": {
      await seconds(options.leadSeconds);
      const dispatcher = fault.role === "webhooks";
      if (dispatcher) {
        // Leave deliveries stored and due at the kill: the receiver refuses them for a moment before.
        if (!(await receiver.nextAccepted(30_000))) note("no notification arrived within 30 s");
        receiver.failing = true;
        await seconds(options.storedBeforeKillSeconds);
      }
      const pid = topology.pidOf(fault.role);
      await topology.kill(fault.role);
      if (dispatcher) {
        marks.push({
          fault: currentFault,
          from: "kill -9",
          at: Date.now(),
          limits: RESUMPTION_LIMITS.webhooksKill,
        });
        receiver.failing = false;
      }
      note(`kill -9 ${fault.role} (pid ${pid})`);
      await seconds(dispatcher ? options.webhooksDownSeconds : options.killDownSeconds);
      await supervisor.restart(fault.role, 0, "restarted after kill -9");
      await seconds(options.recoverySeconds);
      return;
    }
    case "kafka-outage": {
      await seconds(options.leadSeconds);
      await infra.kafkaStop();
      note(`Kafka stopped (data kept) for ${fault.seconds} s`);
      await seconds(fault.seconds);
      await infra.kafkaStart();
      marks.push({
        fault: currentFault,
        from: "broker answering",
        at: Date.now(),
        limits: RESUMPTION_LIMITS.kafkaRestart,
      });
      note("Kafka started again on the same data (answering)");
      await seconds(options.recoverySeconds);
      return;
    }
    case "pg-restart": {
      await seconds(options.leadSeconds);
      const began = performance.now();
      await infra.pgRestart(fault.mode);
      note(`pg_ctl restart -m ${fault.mode} done in ${((performance.now() - began) / 1000).toFixed(1)} s`);
      await seconds(options.recoverySeconds);
      return;
    }
    case "receiver-failing": {
      await seconds(options.leadSeconds);
      // Fail while notifications flow, or the fault proves nothing.
      if (!(await receiver.nextAccepted(30_000))) note("no notification arrived within 30 s");
      receiver.failing = true;
      note(`receiver answers 500 for ${fault.seconds} s`);
      await seconds(fault.seconds);
      receiver.failing = false;
      note("receiver answers 200 again");
      await seconds(options.recoverySeconds);
      return;
    }
    case "batch-kill": {
      await seconds(options.leadSeconds);
      const problems = await runBatchUnderKills({
        topology,
        databaseUrl: infra.databaseUrl,
        partnerId: account.partnerId,
        customerId: account.customerId,
        items: fault.items,
        downSeconds: options.killDownSeconds,
        restartLedger: () => supervisor.restart("ledger", 0, "restarted after kill -9"),
        note,
        batchCompletions: () => receiver.batchCompletions,
      });
      for (const detail of problems) batchFindings.push({ fault: currentFault, check: "batch", detail });
      note(problems.length ? `batch audit: ${problems.length} problem(s)` : "batch audit passed");
      await seconds(options.recoverySeconds);
      return;
    }
    case "replicas": {
      await seconds(options.leadSeconds);
      const [ledger, dispatcher] = await Promise.all([
        topology.addReplica("ledger"),
        topology.addReplica("webhooks"),
      ]);
      const gateway = await topology.addReplica("gateway", {
        LEDGER_ADDR: `http://${topology.grpcAddress("ledger", ledger)}`,
        WEBHOOKS_ADDR: `http://${topology.grpcAddress("webhooks", dispatcher)}`,
      });
      driver.gateways = topology.gateways();
      note(
        `second ledger, dispatcher and gateway (→ the second ledger and dispatcher) ready; load on ${driver.gateways.length} gateways`,
      );
      await seconds(options.replicaSeconds);
      driver.gateways = topology.gateways().slice(0, 1);
      // Requests already sent to the second gateway finish: it drains on SIGTERM.
      for (const [role, replica] of [
        ["gateway", gateway],
        ["ledger", ledger],
        ["webhooks", dispatcher],
      ] as const) {
        const exit = await topology.stopReplica(role, replica);
        note(`${role} replica ${replica} stopped (${exit.signal ?? `code ${exit.code}`})`);
      }
      await seconds(options.recoverySeconds);
      return;
    }
  }
}

/**
 * Restarts a process that died by itself, as Kubernetes would (with a growing pause between attempts),
 * so one crash does not end the run; the crash stays in the exit log and fails the audit.
 */
class Supervisor {
  private readonly seen = new Set<ExitRecord>();
  private readonly pending = new Set<string>();
  private readonly attempts = new Map<string, number>();
  private readonly timer = setInterval(() => this.tick(), 250);
  private stopped = false;

  constructor(private readonly topology: DistributedTopology) {}

  /** Starts a process again (after a kill or a crash); a failed start is left to the crash handling. */
  async restart(role: Role, replica: number, why: string): Promise<void> {
    const key = `${role}#${replica}`;
    if (this.pending.has(key)) return;
    this.pending.add(key);
    const began = performance.now();
    try {
      await this.topology.restart(role, replica);
      this.attempts.delete(key);
      note(
        `${why}: ${role}${replica ? ` replica ${replica}` : ""} ready in ${((performance.now() - began) / 1000).toFixed(1)} s`,
      );
    } catch (error) {
      note(`${why}: ${role} did not start: ${(error as Error).message.split("\n")[0]}`);
    } finally {
      this.pending.delete(key);
    }
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }

  private tick(): void {
    for (const exit of this.topology.exits()) {
      if (this.seen.has(exit)) continue;
      this.seen.add(exit);
      if (exit.cause !== undefined || this.stopped) continue;
      const name = `${exit.role}${exit.replica ? ` replica ${exit.replica}` : ""}`;
      note(`UNEXPECTED EXIT of ${name} (pid ${exit.pid}, ${exit.signal ?? `code ${exit.code}`})`);
      const file = join(logDir, `crash-${exit.role}-${exit.replica}-${exit.pid}.log`);
      writeFileSync(file, this.topology.logsOf(exit.role, exit.replica));
      const key = `${exit.role}#${exit.replica}`;
      const attempt = (this.attempts.get(key) ?? 0) + 1;
      this.attempts.set(key, attempt);
      const pause = Math.min(500 * 2 ** (attempt - 1), 10_000);
      setTimeout(() => {
        if (!this.stopped && this.topology.pidOf(exit.role, exit.replica) === undefined)
          void this.restart(exit.role, exit.replica, "restarted after crash");
      }, pause);
    }
  }
}

/** FX and corridor for BRL, then per phase a partner with an app, a credit, a customer and a webhook config. */
async function seed(
  topology: DistributedTopology,
  receiver: ChaosReceiver,
  plan: readonly Fault[],
  runId: string,
): Promise<PartnerAccount[]> {
  const admin = async (expected: number, method: string, path: string, body: unknown, headers = {}) =>
    expectStatus(
      expected,
      `${topology.adminUrl}${path}`,
      method,
      { authorization: `Bearer ${topology.adminToken}`, ...headers },
      body,
    );
  await admin(200, "PUT", "/admin/fx-rates/BRL", { rate_per_usd: FX_RATE_BRL });
  await admin(200, "PUT", "/admin/corridors/BR", {
    currency: "BRL",
    min_amount: "1",
    max_amount: "50000",
    enabled: true,
  });
  const seedPartner = async (fault: Fault, index: number): Promise<PartnerAccount> => {
    const partner = await admin(201, "POST", "/admin/partners", {
      name: `chaos ${index}: ${faultName(fault)}`,
      supported_currencies: ["BRL"],
      fees: { percent: "1.5", fixed_usd: "0.30" },
    });
    const partnerId: string = partner.json.partner_id;
    const app = await admin(201, "POST", `/admin/partners/${partnerId}/apps`, {});
    await admin(
      201,
      "POST",
      `/admin/partners/${partnerId}/balance/credits`,
      { amount_usd: CREDIT_USD, reference: "chaos funding" },
      { "x-idempotency-key": `chaos-${runId}-credit-${index}` },
    );
    const auth = {
      authorization: `Basic ${Buffer.from(`${app.json.client_id}:${app.json.client_secret}`).toString("base64")}`,
    };
    const customer = await expectStatus(201, `${topology.partnerUrl}/customers`, "POST", auth, SENDER);
    const secret = `whsec-chaos-${randomBytes(12).toString("hex")}`;
    await expectStatus(201, `${topology.partnerUrl}/webhookConfigs`, "POST", auth, {
      url: receiver.register(String(index), partnerId, secret),
      secret,
      events: ["*"],
    });
    return {
      partnerId,
      clientId: app.json.client_id,
      clientSecret: app.json.client_secret,
      customerId: customer.json.customer_id,
    };
  };
  const accounts = await Promise.all(plan.map(seedPartner));
  note(`seeded ${accounts.length} partners, ${CREDIT_USD} USD each`);
  return accounts;
}

async function expectStatus(
  expected: number,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: unknown,
  // biome-ignore lint/suspicious/noExplicitAny: seeding reads a few fields of JSON answers
): Promise<{ json: any }> {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected) throw new Error(`${method} ${url}: ${response.status} ${text}`);
  return { json: JSON.parse(text) };
}

/**
 * Waits until nothing is under way: no payout PROCESSING, every outbox event published, no delivery
 * pending, no refund queued, and every settled payout's notifications accepted by the receiver.
 */
async function waitForQuiescence(
  infra: ChaosInfra,
  receiver: ChaosReceiver,
  driver: PayoutDriver,
  timeoutSeconds: number,
): Promise<boolean> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  let last = "";
  for (;;) {
    let state = "database unreachable";
    try {
      const work = await withClient(infra.databaseUrl, backlog);
      const accepted = new Set(receiver.notifications.filter(isAccepted).map((n) => `${n.txId}/${n.kind}`));
      const missing = work.settled.filter((tx) =>
        requiredNotifications(tx.status).some((kind) => !accepted.has(`${tx.txId}/${kind}`)),
      ).length;
      const refunds = driver.refundsIdle() ? 0 : 1;
      if (work.processing + work.unpublishedEvents + work.openDeliveries + missing + refunds === 0)
        return true;
      state =
        `${work.processing} processing, ${work.unpublishedEvents} unpublished events, ` +
        `${work.openDeliveries} open deliveries, ${missing} payouts short of notifications, refunds ${refunds ? "running" : "idle"}`;
    } catch (error) {
      state = `database unreachable: ${(error as Error).message}`;
    }
    if (state !== last) log(`waiting: ${state}`);
    last = state;
    if (Date.now() > deadline) return false;
    await sleep(1_000);
  }
}

/** The last output of every process (the latest start of each role and replica). */
function saveLogs(topology: DistributedTopology): void {
  const roles: Role[] = ["gateway", "lookup", "pricing", "ledger", "webhooks", "sandbox-rail"];
  for (const role of roles) {
    for (let replica = 0; replica < 4; replica++) {
      const output = topology.logsOf(role, replica);
      if (output) writeFileSync(join(logDir, `${role}-${replica}.log`), output);
    }
  }
}

function writeReports(report: AuditReport, summary: RunSummary): void {
  const base = join(outDir, `audit-${summary.mode}`);
  writeFileSync(`${base}.json`, `${JSON.stringify({ ...summary, audit: report }, null, 2)}\n`);
  writeFileSync(`${base}.md`, markdownReport(report, summary));
}

function printReport(report: AuditReport, summary: RunSummary): void {
  const out = [
    "",
    `Fault-injection audit (${summary.mode}, ${summary.durationSeconds} s): ${report.passed ? "PASSED" : "FAILED"}`,
    "",
    textTable(report),
    "",
    "Resumption (time to the first webhook delivered after the fault):",
    resumptionTable(report.resumptions),
    "",
    ...(report.findings.length ? ["Findings:", ...findingLines(report), ""] : []),
    `Load: ${Object.entries(summary.load)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`,
    `Reports: ${join(outDir, `audit-${summary.mode}.md`)} and .json; process logs in ${logDir}`,
    "",
  ];
  process.stdout.write(out.join("\n"));
}

main()
  .then(async (code) => {
    await cleanUp();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    log(`run failed: ${(error as Error).stack ?? error}`);
    await cleanUp();
    process.exit(1);
  });
