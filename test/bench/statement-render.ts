/**
 * Statement rendering through a real HTTP response: the server process (statement-render-server.ts) streams a
 * day of N lines in one format; this client reads the whole body. Reports lines per second (the request's
 * wall time) and how far the server's resident set rose above its idle size (VmHWM after a reset).
 * Run alone: `node --conditions=source --import tsx test/bench/statement-render.ts [lines] [formats]`.
 */
import { request } from "node:http";
import { join } from "node:path";
import type { StatementRenderResult } from "./bench-results.js";
import { startChild } from "./child-process.js";
import { readPeakRssKb, readRssKb, resetPeakRss } from "./process-stats.js";

/** What a full run renders; --quick renders fewer lines. */
export const STATEMENT_RENDER_FORMATS = ["csv", "json", "camt053"] as const;
export const STATEMENT_RENDER_LINES = { full: 100_000, quick: 20_000 } as const;

const benchDir = import.meta.dirname;

function fetchBody(port: number, path: string): Promise<{ bytes: number; newlines: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path }, (res) => {
      let bytes = 0;
      let newlines = 0;
      res.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines += 1;
      });
      res.on("end", () =>
        res.complete ? resolve({ bytes, newlines }) : reject(new Error("body cut short")),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

export async function measureStatementRender(
  lines: number,
  formats: readonly string[],
  logFile: string,
): Promise<StatementRenderResult[]> {
  const child = await startChild({
    name: "statement-render",
    command: process.execPath,
    args: ["--conditions=source", "--import", "tsx", join(benchDir, "statement-render-server.ts")],
    env: { ...process.env, NODE_OPTIONS: "" },
    cwd: join(benchDir, "..", ".."),
    logFile,
    ready: /^PORT=\d+/,
    timeoutMs: 30_000,
  });
  try {
    const port = Number(child.readyLine.split("=")[1]);
    const results: StatementRenderResult[] = [];
    for (const format of formats) {
      await fetchBody(port, `/?format=${format}&lines=2000`); // warm-up: code loaded and compiled
      const before = readRssKb(child.pid);
      resetPeakRss(child.pid);
      const t0 = performance.now();
      const { bytes } = await fetchBody(port, `/?format=${format}&lines=${lines}`);
      const seconds = (performance.now() - t0) / 1000;
      const peak = readPeakRssKb(child.pid);
      results.push({
        format,
        lines,
        bytes,
        seconds,
        linesPerSecond: lines / seconds,
        rssRiseMb: before !== undefined && peak !== undefined ? (peak - before) / 1024 : undefined,
      });
    }
    return results;
  } finally {
    await child.stop();
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const lines = Number(process.argv[2] ?? "100000");
  const formats = (process.argv[3] ?? "csv").split(",");
  const results = await measureStatementRender(lines, formats, "/tmp/statement-render-bench.log");
  for (const r of results) {
    process.stdout.write(
      `${r.format}: ${r.lines} lines, ${(r.bytes / 1e6).toFixed(1)} MB in ${r.seconds.toFixed(2)} s = ${Math.round(r.linesPerSecond)} lines/s, server RSS rise ${r.rssRiseMb?.toFixed(1) ?? "?"} MB\n`,
    );
  }
}
