import { type ChildProcess, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";

export interface Child {
  readonly name: string;
  readonly pid: number;
  /** The first stdout line matching the ready pattern. */
  readonly readyLine: string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface ChildSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** stdout and stderr go here (appended). */
  readonly logFile: string;
  /** A stdout line matching this means the child is ready. */
  readonly ready: RegExp;
  readonly timeoutMs: number;
}

/** Starts a process and waits until it prints its ready line; kills it if it fails to. */
export async function startChild(spec: ChildSpec): Promise<Child> {
  const log = createWriteStream(spec.logFile, { flags: "a" });
  const proc = spawn(spec.command, [...spec.args], {
    cwd: spec.cwd,
    env: spec.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stderr?.pipe(log, { end: false });
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  try {
    const readyLine = await waitForLine(proc, spec, log);
    return {
      name: spec.name,
      pid: proc.pid ?? 0,
      readyLine,
      stop: (graceMs = 10_000) => stopProcess(proc, exited, graceMs),
    };
  } catch (error) {
    await stopProcess(proc, exited, 2_000);
    throw error;
  }
}

function waitForLine(proc: ChildProcess, spec: ChildSpec, log: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    let found = false;
    const timer = setTimeout(
      () => reject(new Error(`${spec.name} not ready after ${spec.timeoutMs} ms (log: ${spec.logFile})`)),
      spec.timeoutMs,
    );
    proc.stdout?.on("data", (chunk: Buffer) => {
      log.write(chunk);
      if (found) return;
      buffered += chunk.toString("utf8");
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      const line = lines.find((l) => spec.ready.test(l));
      if (line !== undefined) {
        found = true;
        clearTimeout(timer);
        resolve(line);
      }
    });
    proc.once("exit", (code, signal) => {
      clearTimeout(timer);
      if (!found)
        reject(
          new Error(`${spec.name} exited (${code ?? signal}) before it was ready; log: ${spec.logFile}`),
        );
    });
  });
}

async function stopProcess(proc: ChildProcess, exited: Promise<void>, graceMs: number): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}
