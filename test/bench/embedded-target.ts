import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startChild } from "./child-process.js";
import { freePort } from "./free-port.js";
import { once } from "./once.js";
import type { Credentials, PlatformEndpoints } from "./platform-api.js";

export interface EmbeddedTarget extends PlatformEndpoints {
  readonly pid: number;
  /** The sandbox partner's app that `npm start` seeds. */
  readonly sandbox: Credentials;
  stop(): Promise<void>;
}

/**
 * What `npm start` runs (services/runtime/src/embedded.ts: every service in one process on PGlite and the
 * in-process bus) with a fresh data directory, fixed sandbox credentials and a preview rate limit high
 * enough not to be what is measured.
 */
export async function startEmbedded(repoRoot: string, logFile: string): Promise<EmbeddedTarget> {
  const dataDir = mkdtempSync(join(tmpdir(), "payouts-bench-embedded-"));
  const port = await freePort();
  const adminPort = await freePort();
  const adminToken = randomBytes(24).toString("base64url");
  const sandbox = {
    clientId: `ci_bench_${randomBytes(4).toString("hex")}`,
    clientSecret: `cs_${randomBytes(24).toString("base64url")}`,
  };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PAYOUTS_DATA_DIR: dataDir,
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    HOST: "127.0.0.1",
    ADMIN_TOKEN: adminToken,
    SANDBOX_CLIENT_ID: sandbox.clientId,
    SANDBOX_CLIENT_SECRET: sandbox.clientSecret,
    PREVIEW_RATE_LIMIT_PER_MINUTE: "10000000",
    SANDBOX_AUTO_SETTLE_MS: "0",
  };
  // `npm start` on a fresh clone: PGlite and the in-process bus, not the servers of the distributed run.
  delete env.DATABASE_URL;
  delete env.KAFKA_BROKERS;
  delete env.NODE_OPTIONS;
  delete env.LOG_LEVEL;
  const child = await startChild({
    name: "embedded",
    command: process.execPath,
    args: ["--conditions=source", "--import", "tsx", "services/runtime/src/embedded.ts"],
    env,
    cwd: repoRoot,
    logFile,
    ready: /Payouts sandbox is running/,
    timeoutMs: 180_000,
  });
  return {
    partnerUrl: `http://127.0.0.1:${port}`,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    adminToken,
    pid: child.pid,
    sandbox,
    stop: once(async () => {
      await child.stop(25_000);
      rmSync(dataDir, { recursive: true, force: true });
    }),
  };
}
