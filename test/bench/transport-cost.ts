/**
 * CPU per call between two services, by transport: servers in child processes with the platform's
 * tracing, metrics and caller-check interceptors on the RPC listener, and a client in this process
 * calling `grpc.health.v1.Health/Check` with a caller token, 50 calls in flight. Servers:
 *
 * - `platform`: `startGrpcServer` (unary Connect over HTTP/1.1 served by connect-unary-handler.ts,
 *   everything else by connect-node);
 * - `connect-node`: connect-node's `connectNodeAdapter` for every call (the server before that handler).
 *
 * Clients:
 * - `connect-http1`: `createServiceTransport` (what the services use: Connect, binary, HTTP/1.1, with
 *   the platform's own HTTP client, http1-unary-client.ts);
 * - `connect-node-http1`: the same protocol through connect-node's `createConnectTransport`;
 * - `connect-grpc-h2c`: connect-node's gRPC transport over h2c with the same interceptors and headers
 *   (what they used before the platform's own unary client and server).
 *
 * Variants alternate for `--rounds` so a change in the machine's load hits both; each measures
 * `--calls` calls after a warm-up. CPU is user + system time of each process (this one: process.cpuUsage;
 * the server: /proc/<pid>/stat), in µs per call — steadier than calls per second on a shared machine.
 *
 *   node --conditions=source --import tsx test/bench/transport-cost.ts [--rounds 3] [--calls 20000]
 *     [--only "connect-http1 → platform,..."]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { Agent } from "node:http";
import { fileURLToPath } from "node:url";
import { createClient, type Transport } from "@connectrpc/connect";
import { connectNodeAdapter, createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { HealthState } from "@payouts/platform/internal/rpc/health-service";
import { listenRpc } from "@payouts/platform/internal/rpc/rpc-listener";
import { createLogger } from "@payouts/platform/logging/logger";
import { serverInterceptors, startGrpcServer } from "@payouts/platform/rpc/grpc-server";
import {
  generateServiceCredentials,
  parseCallerKeys,
  ServiceTokenVerifier,
  signerOf,
} from "@payouts/platform/rpc/service-credentials";
import {
  clientInterceptors,
  createServiceTransport,
  MAX_CONNECTIONS_PER_SERVICE,
} from "@payouts/platform/rpc/service-transport";
import { Health } from "@payouts/proto/grpc/health/v1/health_pb";

const CLIENTS = {
  "connect-http1": (baseUrl: string) => createServiceTransport(baseUrl),
  "connect-node-http1": (baseUrl: string) =>
    createConnectTransport({
      baseUrl,
      httpVersion: "1.1",
      useBinaryFormat: true,
      nodeOptions: { agent: new Agent({ keepAlive: true, maxSockets: MAX_CONNECTIONS_PER_SERVICE }) },
      interceptors: clientInterceptors(),
      defaultTimeoutMs: 15_000,
      acceptCompression: [],
    }),
  "connect-grpc-h2c": (baseUrl: string) =>
    createGrpcTransport({
      baseUrl,
      interceptors: clientInterceptors(),
      defaultTimeoutMs: 15_000,
      pingIntervalMs: 30_000,
      acceptCompression: [],
    }),
} satisfies Record<string, (baseUrl: string) => Transport>;
const SERVERS = ["platform", "connect-node"] as const;
type Server = (typeof SERVERS)[number];
/** Client × server pairs measured, by name. */
const VARIANTS: Record<string, { client: keyof typeof CLIENTS; server: Server }> = {
  "connect-http1 → platform": { client: "connect-http1", server: "platform" },
  "connect-http1 → connect-node": { client: "connect-http1", server: "connect-node" },
  "connect-node-http1 → platform": { client: "connect-node-http1", server: "platform" },
  "connect-grpc-h2c → platform": { client: "connect-grpc-h2c", server: "platform" },
};

const CLK_TCK = 100;

function procCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function serve(callerKeys: string, server: Server): Promise<void> {
  const verifier = new ServiceTokenVerifier("pricing", parseCallerKeys(callerKeys));
  if (server === "connect-node") {
    const health = new HealthState(["payouts.pricing.v1.PricingService"]);
    const handler = connectNodeAdapter({
      interceptors: serverInterceptors({ verifier }),
      routes: (router) => health.register(router),
    });
    const listener = await listenRpc(handler, 0, "127.0.0.1");
    process.stdout.write(`PORT=${listener.port}\n`);
    process.on("SIGTERM", () => void listener.close().then(() => process.exit(0)));
    return;
  }
  const platform = await startGrpcServer({
    name: "transport-cost",
    port: 0,
    serviceNames: ["payouts.pricing.v1.PricingService"],
    routes: () => {},
    auth: { verifier },
    logger: createLogger({ service: "transport-cost", level: "warn" }),
  });
  process.stdout.write(`PORT=${platform.port}\n`);
  process.on("SIGTERM", () => void platform.close().then(() => process.exit(0)));
}

async function callMany(transport: Transport, token: string, calls: number, inFlight: number): Promise<void> {
  const client = createClient(Health, transport);
  const headers = { authorization: `Bearer ${token}` };
  let next = 0;
  const worker = async () => {
    while (next < calls) {
      next++;
      await client.check({ service: "" }, { headers });
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

async function startServer(
  callerKeys: string,
  server: Server,
): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(
    process.execPath,
    [
      // `node --cpu-prof --cpu-prof-dir=<dir> …transport-cost.ts` profiles the servers too.
      ...process.execArgv.filter((arg) => arg.startsWith("--cpu-prof")),
      "--conditions=source",
      "--import",
      "tsx",
      fileURLToPath(import.meta.url),
      "serve",
      server,
    ],
    { env: { ...process.env, TRANSPORT_COST_CALLER_KEYS: callerKeys }, stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      const match = /PORT=(\d+)/.exec(String(chunk));
      if (match) resolve(Number(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, port };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "serve") return serve(process.env.TRANSPORT_COST_CALLER_KEYS ?? "", args[1] as Server);
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(name);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  const rounds = option("--rounds", 3);
  const only = args.includes("--only") ? (args[args.indexOf("--only") + 1] ?? "").split(",") : undefined;
  const calls = option("--calls", 20_000);
  const credentials = generateServiceCredentials();
  const token = await signerOf(credentials, "gateway").tokenFor("pricing");
  const servers = {} as Record<Server, { child: ChildProcess; port: number }>;
  const results: Record<string, { client: number[]; server: number[]; callsPerSecond: number[] }> = {};
  try {
    for (const server of SERVERS) servers[server] = await startServer(credentials.callerKeys, server);
    const transports = Object.fromEntries(
      Object.entries(VARIANTS)
        .filter(([name]) => only === undefined || only.includes(name))
        .map(([name, { client, server }]) => [
          name,
          CLIENTS[client](`http://127.0.0.1:${servers[server].port}`),
        ]),
    );
    for (const transport of Object.values(transports)) await callMany(transport, token, 2_000, 50);
    for (let round = 0; round < rounds; round++) {
      for (const [name, transport] of Object.entries(transports)) {
        const pid = servers[VARIANTS[name]?.server ?? "platform"].child.pid ?? 0;
        const [client0, server0, t0] = [ownCpuMs(), procCpuMs(pid), performance.now()];
        await callMany(transport, token, calls, 50);
        const [client1, server1, t1] = [ownCpuMs(), procCpuMs(pid), performance.now()];
        const r = results[name] ?? { client: [], server: [], callsPerSecond: [] };
        results[name] = r;
        r.client.push(((client1 - client0) * 1000) / calls);
        r.server.push(((server1 - server0) * 1000) / calls);
        r.callsPerSecond.push(Math.round((calls * 1000) / (t1 - t0)));
      }
    }
  } finally {
    for (const { child } of Object.values(servers)) child.kill("SIGTERM");
  }
  const fmt = (values: number[]) => values.map((v) => v.toFixed(0)).join(" / ");
  process.stdout.write(`${calls} calls per measurement, 50 in flight, ${rounds} alternating rounds\n\n`);
  process.stdout.write(
    "| transport | client CPU µs/call | server CPU µs/call | calls/s |\n|---|--:|--:|--:|\n",
  );
  for (const [name, r] of Object.entries(results)) {
    process.stdout.write(`| ${name} | ${fmt(r.client)} | ${fmt(r.server)} | ${fmt(r.callsPerSecond)} |\n`);
  }
}

await main();
