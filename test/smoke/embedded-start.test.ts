import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../support/test-platform.js";

const root = join(import.meta.dirname, "..", "..");

/** Runs `npm start` as a newcomer would, on free ports and a private data directory. */
function npmStart(
  dataDir: string,
  port: number,
  adminPort: number,
): { child: ChildProcess; output: Promise<string> } {
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const k of [
    "DATABASE_URL",
    "KAFKA_BROKERS",
    "ADMIN_TOKEN",
    "SANDBOX_CLIENT_ID",
    "SANDBOX_CLIENT_SECRET",
  ])
    delete env[k];
  const child = spawn("npm", ["start", "--silent"], {
    cwd: root,
    env: {
      ...env,
      PAYOUTS_DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      HOST: "127.0.0.1",
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let text = "";
  const output = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`npm start printed no credentials in 120 s:\n${text}`)),
      120_000,
    );
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes("Press Ctrl+C")) {
        clearTimeout(timer);
        resolve(text);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`npm start exited with ${code}:\n${text}`)));
  });
  return { child, output };
}

/** SIGTERM to npm and its children, then wait until the whole process group is gone (SIGKILL after 25 s). */
async function stop(child: ChildProcess): Promise<void> {
  const group = -child.pid!;
  const alive = () => {
    try {
      process.kill(group, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!alive()) return;
  process.kill(group, "SIGTERM");
  const deadline = Date.now() + 25_000;
  while (alive()) {
    if (Date.now() > deadline) process.kill(group, "SIGKILL");
    await new Promise((r) => setTimeout(r, 100));
  }
}

const field = (text: string, name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(text)?.[1] ?? "";

describe("npm start (embedded mode)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "payouts-smoke-"));
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const c of children) await stop(c);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("prints working credentials, and keeps data across a restart", async () => {
    const port = await freePort();
    const adminPort = await freePort();
    const first = npmStart(dataDir, port, adminPort);
    children.push(first.child);
    const text = await first.output;
    const clientId = field(text, "client_id");
    const secret = field(text, "client_secret");
    expect(clientId).toMatch(/^ci_/);
    expect(text).toContain(`curl -s -u '${clientId}:${secret}' http://127.0.0.1:${port}/balance`);
    const auth = `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`;
    const balance = await fetch(`http://127.0.0.1:${port}/balance`, { headers: { authorization: auth } });
    expect(balance.status).toBe(200);
    const body = (await balance.json()) as { balance_usd: number };
    expect(body.balance_usd).toBe(10000);

    await stop(first.child);
    const second = npmStart(dataDir, port, adminPort);
    children.push(second.child);
    const again = await second.output;
    expect(field(again, "client_id")).toBe(clientId);
    const after = await fetch(`http://127.0.0.1:${port}/balance`, { headers: { authorization: auth } });
    expect(after.status).toBe(200);
    expect(((await after.json()) as { balance_usd: number }).balance_usd).toBe(10000);
  }, 300_000);
});
