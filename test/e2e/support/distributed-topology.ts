/**
 * The distributed topology as production runs it: `node services/runtime/dist/cli.js <role>` child processes
 * from the built output (no tsx, no "source" condition), one per service on its own port, gRPC between
 * them, PostgreSQL and Kafka shared. Each child leads its own process group, so stopping signals the
 * whole group and nothing outlives the test file.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateEventSigningKeys } from "@payouts/platform/events/event-signature";
import type { ServiceCaller } from "@payouts/platform/rpc/caller-allowlist";
import {
  generateServiceCredentials,
  type ServiceAudience,
  signerOf,
} from "@payouts/platform/rpc/service-credentials";
import { Health, HealthCheckResponse_ServingStatus } from "@payouts/proto/grpc/health/v1/health_pb";
import { DATABASE_USERS, generateServiceDatabaseUrls } from "@payouts/runtime/internal/database-roles";
import { grpcJsUnary } from "./grpc-js-unary.js";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const CLI = join(REPO_ROOT, "services", "runtime", "dist", "cli.js");
const INSTRUMENTATION = join(REPO_ROOT, "services", "platform", "dist", "telemetry", "instrumentation.js");
/** What the image puts in NODE_OPTIONS: OpenTelemetry loads before the application. */
const NODE_FLAGS = [`--import=${INSTRUMENTATION}`];

export const SERVICE_ROLES = ["lookup", "pricing", "ledger", "webhooks", "sandbox-rail"] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];
export type Role = ServiceRole | "gateway";

/** Env names the gateway and the services read each service's address from. */
const ADDRESS_ENV: Readonly<Record<ServiceRole, string>> = {
  lookup: "LOOKUP_ADDR",
  pricing: "PRICING_ADDR",
  ledger: "LEDGER_ADDR",
  webhooks: "WEBHOOKS_ADDR",
  "sandbox-rail": "RAIL_ADDR",
};

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 25_000;
const LOG_LINES_KEPT = 300;

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** One process exit as it happened, with who caused it. */
export interface ExitRecord extends ProcessExit {
  readonly role: Role;
  /** 0 for the process the topology starts with, 1… for replicas added with `addReplica`. */
  readonly replica: number;
  readonly pid: number | undefined;
  /** `Date.now()` when the exit was seen. */
  readonly at: number;
  /** What the suite did first: `kill` (SIGKILL), `stop` (SIGTERM: `stopReplica`, `stop`); undefined when the process died by itself. */
  readonly cause: "kill" | "stop" | undefined;
}

export interface TopologyOptions {
  readonly databaseUrl: string;
  readonly kafkaBrokers: string;
  /** Extra settings for every process (they override the defaults below). */
  readonly env?: Readonly<Record<string, string>>;
}

export interface DistributedTopology {
  readonly partnerUrl: string;
  readonly adminUrl: string;
  readonly adminToken: string;
  /** A token of a caller identity addressed to one service (gRPC `authorization: Bearer <token>`). */
  serviceToken(caller: ServiceCaller, audience: ServiceAudience): Promise<string>;
  /** `127.0.0.1:<port>` of a service's gRPC listener (of a replica when `replica` > 0). */
  grpcAddress(role: ServiceRole, replica?: number): string;
  /** The last lines a process wrote (stdout and stderr). */
  logsOf(role: Role, replica?: number): string;
  /** SIGTERM to every process group (the gateway first), SIGKILL after 25 s; how each one exited. */
  stop(): Promise<Record<Role, ProcessExit>>;
  /** Partner and admin URLs of every gateway process started (replica 0 first), running or not. */
  gateways(): ReadonlyArray<{
    readonly replica: number;
    readonly partnerUrl: string;
    readonly adminUrl: string;
  }>;
  /** The pid of a process, undefined once it exited. */
  pidOf(role: Role, replica?: number): number | undefined;
  /** SIGKILL to the process group (kill -9, no shutdown); resolves with the exit. */
  kill(role: Role, replica?: number): Promise<ProcessExit>;
  /** Starts an exited process again with the same settings and ports; resolves once it is ready. */
  restart(role: Role, replica?: number): Promise<void>;
  /**
   * Starts one more process of a role on ports of its own (`env` overrides its settings, e.g. which
   * ledger a second gateway calls); resolves with its replica number once it is ready.
   */
  addReplica(role: Role, env?: Readonly<Record<string, string>>): Promise<number>;
  /** SIGTERM to a process group (a clean stop, SIGKILL after 25 s); resolves with the exit. */
  stopReplica(role: Role, replica: number): Promise<ProcessExit>;
  /** Every exit so far, in order. */
  exits(): readonly ExitRecord[];
}

/** Builds the workspaces when `services/runtime/dist/cli.js` (or the telemetry preload) is missing, so `npm test` alone works on a fresh clone. */
export function ensureBuilt(): void {
  if (existsSync(CLI) && existsSync(INSTRUMENTATION)) return;
  const build = spawnSync("npm", ["run", "build"], { cwd: REPO_ROOT, encoding: "utf8" });
  if (build.status !== 0 || !existsSync(CLI) || !existsSync(INSTRUMENTATION)) {
    // tsc reports on stdout: keep both streams, or the reason is lost.
    throw new Error(
      `npm run build failed (${build.status ?? build.signal}):\n${build.stdout}${build.stderr}`,
    );
  }
}

import { freePort } from "../../support/free-port.js";

export { freePort };

/**
 * Migrates the database with the `migrate` role, then starts the services and, last, the gateway. A port
 * probed free can still be taken by another process before the service binds it: a start that fails with
 * EADDRINUSE is stopped and tried again on new ports (migrations are idempotent), at most three times.
 */
export async function startDistributedTopology(options: TopologyOptions): Promise<DistributedTopology> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(options);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error) || !error.message.includes("EADDRINUSE")) throw error;
    }
  }
}

async function startOnce(options: TopologyOptions): Promise<DistributedTopology> {
  const ports = new Map<Role | "admin", number>();
  for (const role of [...SERVICE_ROLES, "gateway", "admin"] as const) ports.set(role, await freePort());
  const adminToken = `e2e-admin-${randomBytes(12).toString("hex")}`;
  // Fresh service key pairs per topology; launch() hands each process only its own private keys.
  const credentials = generateServiceCredentials();
  const eventKeys = generateEventSigningKeys();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    DATABASE_URL: options.databaseUrl,
    ...serviceDatabaseUrls(options.databaseUrl),
    KAFKA_BROKERS: options.kafkaBrokers,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "info",
    HOST: "127.0.0.1",
    // Every process has its own Prometheus listener: on one machine they need distinct ports.
    METRICS_PORT: "0",
    ADMIN_PORT: String(ports.get("admin")),
    ADMIN_TOKEN: adminToken,
    // The journeys refund as the one admin token; four-eyes approvals have their own tests.
    FOUR_EYES_APPROVALS: "false",
    RAIL_CALLBACK_SECRET: randomBytes(32).toString("base64url"),
    RAIL_CALLBACK_URL: `http://127.0.0.1:${ports.get("gateway")}/callbacks/rail`,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
    SERVICE_CALLER_KEYS: credentials.callerKeys,
    GATEWAY_SERVICE_PRIVATE_KEYS: credentials.processKeys.gateway,
    LEDGER_SERVICE_PRIVATE_KEYS: credentials.processKeys.ledger,
    ...Object.fromEntries(SERVICE_ROLES.map((r) => [ADDRESS_ENV[r], `http://127.0.0.1:${ports.get(r)}`])),
    LEDGER_EVENT_SIGNING_KEY: eventKeys.signingKey,
    EVENT_VERIFY_KEYS: eventKeys.verifyKey,
    ...options.env,
  };

  const children = new Map<Role, RunningProcess>();
  const replicas = new Replicas(env, ports, children);
  const topology: DistributedTopology = {
    partnerUrl: `http://127.0.0.1:${ports.get("gateway")}`,
    adminUrl: `http://127.0.0.1:${ports.get("admin")}`,
    adminToken,
    serviceToken: (caller, audience) => signerOf(credentials, caller).tokenFor(audience),
    grpcAddress: (role, replica = 0) => replicas.grpcAddress(role, replica),
    logsOf: (role, replica = 0) => replicas.get(role, replica)?.output.join("") ?? "",
    stop: () => stopAll(children, replicas),
    gateways: () => replicas.gateways(),
    pidOf: (role, replica = 0) => replicas.pidOf(role, replica),
    kill: (role, replica = 0) => replicas.kill(role, replica),
    restart: (role, replica = 0) => replicas.restart(role, replica),
    addReplica: (role, extraEnv = {}) => replicas.add(role, extraEnv),
    stopReplica: (role, replica) => replicas.stop(role, replica),
    exits: () => replicas.exitLog,
  };
  try {
    await runMigrations(env);
    for (const role of SERVICE_ROLES)
      children.set(role, replicas.track(launch(role, { ...env, PORT: String(ports.get(role)) })));
    await Promise.all(SERVICE_ROLES.map((role) => replicas.waitReady(role, 0)));
    children.set(
      "gateway",
      replicas.track(launch("gateway", { ...env, PORT: String(ports.get("gateway")) })),
    );
    await replicas.waitReady("gateway", 0);
  } catch (error) {
    await stopAll(children, replicas);
    throw error;
  }
  return topology;
}

interface RunningProcess {
  readonly role: Role;
  readonly child: ChildProcess;
  readonly output: string[];
  readonly exited: Promise<ProcessExit>;
  exit: ProcessExit | undefined;
  /** The settings it was started with (a restart reuses them). */
  readonly env: Record<string, string>;
  /** Set before the suite signals it, so its exit is not taken for a crash. */
  stopCause: "kill" | "stop" | undefined;
}

const running = new Set<ChildProcess>();
// If the test worker dies without its afterAll, its children must not outlive it.
process.once("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

/** A process's env: SERVICE_PRIVATE_KEYS holds its own identities' keys only (the gateway's, the ledger's). */
function processEnv(role: Role | "migrate", env: Record<string, string>): Record<string, string> {
  const { GATEWAY_SERVICE_PRIVATE_KEYS, LEDGER_SERVICE_PRIVATE_KEYS, ...rest } = env;
  const own =
    role === "gateway"
      ? GATEWAY_SERVICE_PRIVATE_KEYS
      : role === "ledger"
        ? LEDGER_SERVICE_PRIVATE_KEYS
        : undefined;
  return own === undefined ? rest : { ...rest, SERVICE_PRIVATE_KEYS: own };
}

/** The event signing key goes to the ledger only (as EVENT_SIGNING_KEY); the public keys go to all. */
function withEventSigningKey(role: Role | "migrate", env: Record<string, string>): Record<string, string> {
  const { LEDGER_EVENT_SIGNING_KEY, ...rest } = env;
  return role === "ledger" && LEDGER_EVENT_SIGNING_KEY
    ? { ...rest, EVENT_SIGNING_KEY: LEDGER_EVENT_SIGNING_KEY }
    : rest;
}

/** Each service's own database role (`migrate` creates them), named after the topology's database. */
function serviceDatabaseUrls(databaseUrl: string): Record<string, string> {
  return generateServiceDatabaseUrls(databaseUrl, new URL(databaseUrl).pathname.slice(1));
}

/** `migrate` gets every service's URL; a service only its own, as its DATABASE_URL. */
function ownDatabaseEnv(role: Role | "migrate", env: Record<string, string>): Record<string, string> {
  if (role === "migrate") return env;
  const rest = { ...env };
  for (const user of Object.values(DATABASE_USERS)) delete rest[user.urlEnv];
  const own = env[DATABASE_USERS[role].urlEnv];
  return own ? { ...rest, DATABASE_URL: own } : rest;
}

function launch(role: Role | "migrate", env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, [...NODE_FLAGS, CLI, role], {
    cwd: REPO_ROOT,
    env: ownDatabaseEnv(role, withEventSigningKey(role, processEnv(role, env))),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  const output: string[] = [];
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString("utf8"));
    if (output.length > LOG_LINES_KEPT) output.shift();
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const proc: RunningProcess = {
    role: role as Role,
    child,
    output,
    env,
    stopCause: undefined,
    exit: undefined,
    exited: new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        running.delete(child);
        proc.exit = { code, signal };
        resolve(proc.exit);
      });
    }),
  };
  return proc;
}

async function runMigrations(env: Record<string, string>): Promise<void> {
  const migrate = launch("migrate", env);
  const exit = await migrate.exited;
  if (exit.code !== 0) {
    throw new Error(`migrate exited with ${exit.code ?? exit.signal}:\n${migrate.output.join("")}`);
  }
}

async function waitReady(proc: RunningProcess, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await ready())) {
    if (proc.exit) {
      throw new Error(
        `${proc.role} exited during start (${proc.exit.code ?? proc.exit.signal}):\n${proc.output.join("")}`,
      );
    }
    if (Date.now() > deadline) {
      throw new Error(`${proc.role} not ready after ${START_TIMEOUT_MS} ms:\n${proc.output.join("")}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function serving(address: string): Promise<boolean> {
  try {
    const answer = await grpcJsUnary(address, Health.method.check, { service: "" }, 1_000);
    return answer.status === HealthCheckResponse_ServingStatus.SERVING;
  } catch {
    return false;
  }
}

async function gatewayReady(adminUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${adminUrl}/readyz`, { signal: AbortSignal.timeout(1_000) })).ok;
  } catch {
    return false;
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // The group is already gone.
  }
}

async function stopGroup(proc: RunningProcess): Promise<ProcessExit> {
  if (proc.exit) return proc.exit;
  proc.stopCause ??= "stop";
  killGroup(proc.child, "SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const overrun = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), STOP_TIMEOUT_MS);
  });
  const exit = await Promise.race([proc.exited, overrun]);
  clearTimeout(timer);
  if (exit) return exit;
  killGroup(proc.child, "SIGKILL");
  return proc.exited;
}

async function stopAll(
  children: Map<Role, RunningProcess>,
  replicas: Replicas,
): Promise<Record<Role, ProcessExit>> {
  const exits: Partial<Record<Role, ProcessExit>> = {};
  await Promise.all(replicas.added("gateway").map(stopGroup));
  const gateway = children.get("gateway");
  if (gateway) exits.gateway = await stopGroup(gateway);
  await Promise.all(SERVICE_ROLES.flatMap((role) => replicas.added(role)).map(stopGroup));
  await Promise.all(
    SERVICE_ROLES.filter((role) => children.has(role)).map(async (role) => {
      exits[role] = await stopGroup(children.get(role)!);
    }),
  );
  return exits as Record<Role, ProcessExit>;
}

/**
 * Every process of the topology by (role, replica): replica 0 lives in the topology's `children`, the
 * replicas added later here. It kills, restarts and adds processes, and logs every exit with whether the
 * suite asked for it.
 */
class Replicas {
  readonly exitLog: ExitRecord[] = [];
  private readonly extra = new Map<string, RunningProcess>();
  /** Ports of added replicas: `PORT` (and `ADMIN_PORT` for a gateway). */
  private readonly extraPorts = new Map<string, { port: number; adminPort?: number }>();

  constructor(
    private readonly env: Record<string, string>,
    private readonly ports: ReadonlyMap<Role | "admin", number>,
    private readonly children: Map<Role, RunningProcess>,
  ) {}

  get(role: Role, replica: number): RunningProcess | undefined {
    return replica === 0 ? this.children.get(role) : this.extra.get(key(role, replica));
  }

  added(role: Role): RunningProcess[] {
    return [...this.extra.entries()].filter(([k]) => k.startsWith(`${role}#`)).map(([, proc]) => proc);
  }

  /** Logs the exit of a process when it comes. */
  track(proc: RunningProcess, replica = 0): RunningProcess {
    void proc.exited.then((exit) => {
      this.exitLog.push({
        ...exit,
        role: proc.role,
        replica,
        pid: proc.child.pid,
        at: Date.now(),
        cause: proc.stopCause,
      });
    });
    return proc;
  }

  grpcAddress(role: ServiceRole, replica: number): string {
    const port = replica === 0 ? this.ports.get(role) : this.extraPorts.get(key(role, replica))?.port;
    if (port === undefined) throw new Error(`no ${role} replica ${replica}`);
    return `127.0.0.1:${port}`;
  }

  gateways(): Array<{ replica: number; partnerUrl: string; adminUrl: string }> {
    const url = (port: number | undefined) => `http://127.0.0.1:${port}`;
    const all = [
      { replica: 0, partnerUrl: url(this.ports.get("gateway")), adminUrl: url(this.ports.get("admin")) },
    ];
    for (const [k, { port, adminPort }] of this.extraPorts) {
      if (k.startsWith("gateway#"))
        all.push({ replica: Number(k.split("#")[1]), partnerUrl: url(port), adminUrl: url(adminPort) });
    }
    return all;
  }

  pidOf(role: Role, replica: number): number | undefined {
    const proc = this.get(role, replica);
    return proc && !proc.exit ? proc.child.pid : undefined;
  }

  async kill(role: Role, replica: number): Promise<ProcessExit> {
    const proc = this.mustGet(role, replica);
    if (proc.exit) return proc.exit;
    proc.stopCause ??= "kill";
    killGroup(proc.child, "SIGKILL");
    return proc.exited;
  }

  async stop(role: Role, replica: number): Promise<ProcessExit> {
    return stopGroup(this.mustGet(role, replica));
  }

  async restart(role: Role, replica: number): Promise<void> {
    const old = this.mustGet(role, replica);
    if (!old.exit) throw new Error(`${key(role, replica)} still runs (pid ${old.child.pid})`);
    this.set(role, replica, this.track(launch(role, old.env), replica));
    await this.waitReady(role, replica);
  }

  async add(role: Role, extraEnv: Readonly<Record<string, string>>): Promise<number> {
    let replica = 1;
    while (this.extraPorts.has(key(role, replica))) replica++;
    const port = await freePort();
    const adminPort = role === "gateway" ? await freePort() : undefined;
    this.extraPorts.set(key(role, replica), { port, ...(adminPort ? { adminPort } : {}) });
    const env = {
      ...this.env,
      ...extraEnv,
      PORT: String(port),
      ...(adminPort ? { ADMIN_PORT: String(adminPort) } : {}),
    };
    this.set(role, replica, this.track(launch(role, env), replica));
    await this.waitReady(role, replica);
    return replica;
  }

  waitReady(role: Role, replica: number): Promise<void> {
    const proc = this.mustGet(role, replica);
    if (role === "gateway") {
      const { adminUrl } = this.gateways().find((g) => g.replica === replica)!;
      return waitReady(proc, () => gatewayReady(adminUrl));
    }
    return waitReady(proc, () => serving(this.grpcAddress(role, replica)));
  }

  private set(role: Role, replica: number, proc: RunningProcess): void {
    if (replica === 0) this.children.set(role, proc);
    else this.extra.set(key(role, replica), proc);
  }

  private mustGet(role: Role, replica: number): RunningProcess {
    const proc = this.get(role, replica);
    if (!proc) throw new Error(`no ${role} replica ${replica}`);
    return proc;
  }
}

function key(role: Role, replica: number): string {
  return `${role}#${replica}`;
}
