/**
 * The distributed topology as production runs it: `node gateway/dist/cli.js <role>` child processes
 * from the built output (no tsx, no "source" condition), one per service on its own port, gRPC between
 * them, PostgreSQL and Kafka shared. Each child leads its own process group, so stopping signals the
 * whole group and nothing outlives the test file.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ServiceCaller } from "@payouts/platform/rpc/caller-allowlist";
import { generateServiceCredentials } from "@payouts/platform/rpc/service-credentials";
import { Health, HealthCheckResponse_ServingStatus } from "@payouts/proto/grpc/health/v1/health_pb";
import { grpcJsUnary } from "./grpc-js-unary.js";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const CLI = join(REPO_ROOT, "gateway", "dist", "cli.js");
const INSTRUMENTATION = join(REPO_ROOT, "services", "platform", "dist", "telemetry", "instrumentation.js");
/** What the image puts in NODE_OPTIONS: OpenTelemetry loads before the application (the loader
 * specifier resolves from the working directory, the repository root). */
const NODE_FLAGS = [
  "--experimental-loader=@opentelemetry/instrumentation/hook.mjs",
  `--import=${INSTRUMENTATION}`,
];

export const SERVICE_ROLES = ["lookup", "pricing", "ledger", "webhook-dispatcher", "sandbox-rail"] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];
export type Role = ServiceRole | "gateway";

/** Env names the gateway and the services read each service's address from. */
const ADDRESS_ENV: Readonly<Record<ServiceRole, string>> = {
  lookup: "LOOKUP_ADDR",
  pricing: "PRICING_ADDR",
  ledger: "LEDGER_ADDR",
  "webhook-dispatcher": "WEBHOOKS_ADDR",
  "sandbox-rail": "RAIL_ADDR",
};

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 25_000;
const LOG_LINES_KEPT = 300;

export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
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
  /** The service credential of a caller identity (gRPC `authorization: Bearer <token>`). */
  serviceToken(caller: ServiceCaller): string;
  /** `127.0.0.1:<port>` of a service's gRPC listener. */
  grpcAddress(role: ServiceRole): string;
  /** The last lines a process wrote (stdout and stderr). */
  logsOf(role: Role): string;
  /** SIGTERM to every process group (the gateway first), SIGKILL after 25 s; how each one exited. */
  stop(): Promise<Record<Role, ProcessExit>>;
}

/** Builds the workspaces when `gateway/dist/cli.js` (or the telemetry preload) is missing, so `npm test` alone works on a fresh clone. */
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

/** Migrates the database with the `migrate` role, then starts the services and, last, the gateway. */
export async function startDistributedTopology(options: TopologyOptions): Promise<DistributedTopology> {
  const ports = new Map<Role | "admin", number>();
  for (const role of [...SERVICE_ROLES, "gateway", "admin"] as const) ports.set(role, await freePort());
  const adminToken = `e2e-admin-${randomBytes(12).toString("hex")}`;
  // Fresh service credentials per topology; launch() hands each process only its own tokens.
  const credentials = generateServiceCredentials();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    DATABASE_URL: options.databaseUrl,
    KAFKA_BROKERS: options.kafkaBrokers,
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "info",
    HOST: "127.0.0.1",
    // Every process has its own Prometheus listener: on one machine they need distinct ports.
    METRICS_PORT: "0",
    ADMIN_PORT: String(ports.get("admin")),
    ADMIN_TOKEN: adminToken,
    RAIL_CALLBACK_SECRET: randomBytes(32).toString("base64url"),
    RAIL_CALLBACK_URL: `http://127.0.0.1:${ports.get("gateway")}/callbacks/rail`,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString("hex"),
    SERVICE_CALLER_DIGESTS: credentials.callerDigests,
    GATEWAY_SERVICE_TOKENS: credentials.processTokens.gateway,
    LEDGER_SERVICE_TOKENS: credentials.processTokens.ledger,
    ...Object.fromEntries(SERVICE_ROLES.map((r) => [ADDRESS_ENV[r], `http://127.0.0.1:${ports.get(r)}`])),
    ...options.env,
  };

  const children = new Map<Role, RunningProcess>();
  const topology: DistributedTopology = {
    partnerUrl: `http://127.0.0.1:${ports.get("gateway")}`,
    adminUrl: `http://127.0.0.1:${ports.get("admin")}`,
    adminToken,
    serviceToken: (caller) => credentials.tokens[caller],
    grpcAddress: (role) => `127.0.0.1:${ports.get(role)}`,
    logsOf: (role) => children.get(role)?.output.join("") ?? "",
    stop: () => stopAll(children),
  };
  try {
    await runMigrations(env);
    for (const role of SERVICE_ROLES)
      children.set(role, launch(role, { ...env, PORT: String(ports.get(role)) }));
    await Promise.all(
      SERVICE_ROLES.map((role) => waitReady(children.get(role)!, () => serving(topology.grpcAddress(role)))),
    );
    children.set("gateway", launch("gateway", { ...env, PORT: String(ports.get("gateway")) }));
    await waitReady(children.get("gateway")!, () => gatewayReady(topology.adminUrl));
  } catch (error) {
    await stopAll(children);
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
}

const running = new Set<ChildProcess>();
// If the test worker dies without its afterAll, its children must not outlive it.
process.once("exit", () => {
  for (const child of running) killGroup(child, "SIGKILL");
});

/** A process's env: SERVICE_TOKENS holds its own service credentials only (the gateway's, the ledger's). */
function processEnv(role: Role | "migrate", env: Record<string, string>): Record<string, string> {
  const { GATEWAY_SERVICE_TOKENS, LEDGER_SERVICE_TOKENS, ...rest } = env;
  const own =
    role === "gateway" ? GATEWAY_SERVICE_TOKENS : role === "ledger" ? LEDGER_SERVICE_TOKENS : undefined;
  return own === undefined ? rest : { ...rest, SERVICE_TOKENS: own };
}

function launch(role: Role | "migrate", env: Record<string, string>): RunningProcess {
  const child = spawn(process.execPath, [...NODE_FLAGS, CLI, role], {
    cwd: REPO_ROOT,
    env: processEnv(role, env),
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

async function stopAll(children: Map<Role, RunningProcess>): Promise<Record<Role, ProcessExit>> {
  const exits: Partial<Record<Role, ProcessExit>> = {};
  const gateway = children.get("gateway");
  if (gateway) exits.gateway = await stopGroup(gateway);
  await Promise.all(
    SERVICE_ROLES.filter((role) => children.has(role)).map(async (role) => {
      exits[role] = await stopGroup(children.get(role)!);
    }),
  );
  return exits as Record<Role, ProcessExit>;
}
