import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";

/** A process the benchmark watches: one pid, or a parent whose children are counted together. */
export interface WatchedProcess {
  readonly name: string;
  readonly pid: number;
  /** Count the CPU of the children instead (PostgreSQL: the postmaster's backends). */
  readonly children?: boolean;
  /** Only children whose command line contains this (a backend's title names its database). */
  readonly match?: string;
}

export interface ProcessUsage {
  readonly name: string;
  /** Peak resident set (VmHWM) during the window, MB; undefined for a group of children. */
  readonly peakRssMb: number | undefined;
  /** CPU time used in the window, as a percentage of one core. */
  readonly cpuPercent: number;
  readonly cpuSeconds: number;
}

let clockTicks: number | undefined;

function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/** VmRSS of a process in kB (its resident set now). */
export function readRssKb(pid: number): number | undefined {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** VmHWM of a process in kB (its peak resident set since start or the last reset). */
export function readPeakRssKb(pid: number): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Resets VmHWM to the current RSS (writing 5 to clear_refs); false when not permitted. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** User + system CPU seconds of a process; undefined when it is gone. */
export function readCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond();
  } catch {
    return undefined;
  }
}

export function childPids(pid: number, match?: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid !== pid) continue;
      if (match === undefined || readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(match)) {
        pids.push(Number(entry));
      }
    } catch {
      // exited while listing
    }
  }
  return pids;
}

/** CPU seconds per pid of a watched process (its own pid, or each child). */
function cpuByPid(watched: WatchedProcess): Map<number, number> {
  const pids = watched.children ? childPids(watched.pid, watched.match) : [watched.pid];
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    const seconds = readCpuSeconds(pid);
    if (seconds !== undefined) cpu.set(pid, seconds);
  }
  return cpu;
}

/**
 * Measures peak RSS and CPU of each watched process over one window (a scenario): `begin()` resets the
 * peaks and notes CPU counters, `end()` reads them back. Also keeps the highest peak seen per process.
 */
export class ProcessMonitor {
  private readonly watched: WatchedProcess[] = [];
  private readonly cpuAtBegin = new Map<string, Map<number, number>>();
  private readonly highest = new Map<string, number>();
  private beganAt = 0;
  private resettable = true;

  watch(process: WatchedProcess): void {
    this.watched.push(process);
  }

  unwatch(name: string): void {
    const index = this.watched.findIndex((w) => w.name === name);
    if (index >= 0) {
      this.sampleHighest(this.watched[index]!);
      this.watched.splice(index, 1);
    }
  }

  /** False when VmHWM could not be reset, so peaks are since the process started. */
  get peaksPerWindow(): boolean {
    return this.resettable;
  }

  begin(): void {
    this.beganAt = performance.now();
    for (const w of this.watched) {
      this.sampleHighest(w);
      if (!w.children && !resetPeakRss(w.pid)) this.resettable = false;
      this.cpuAtBegin.set(w.name, cpuByPid(w));
    }
  }

  end(): ProcessUsage[] {
    const wallSeconds = Math.max((performance.now() - this.beganAt) / 1000, 1e-3);
    return this.watched.map((w) => {
      const before = this.cpuAtBegin.get(w.name) ?? new Map<number, number>();
      let used = 0;
      for (const [pid, seconds] of cpuByPid(w)) used += seconds - (before.get(pid) ?? 0);
      const peakKb = w.children ? undefined : readPeakRssKb(w.pid);
      if (peakKb !== undefined) this.noteHighest(w.name, peakKb);
      return {
        name: w.name,
        peakRssMb: peakKb === undefined ? undefined : round1(peakKb / 1024),
        cpuPercent: round1((100 * used) / wallSeconds),
        cpuSeconds: Math.round(used * 1000) / 1000,
      };
    });
  }

  /** Highest peak RSS seen per process over the whole run, MB. */
  highestPeaks(): Record<string, number> {
    for (const w of this.watched) this.sampleHighest(w);
    return Object.fromEntries([...this.highest].map(([name, kb]) => [name, round1(kb / 1024)]));
  }

  private sampleHighest(w: WatchedProcess): void {
    if (w.children) return;
    const kb = readPeakRssKb(w.pid);
    if (kb !== undefined) this.noteHighest(w.name, kb);
  }

  private noteHighest(name: string, kb: number): void {
    this.highest.set(name, Math.max(this.highest.get(name) ?? 0, kb));
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
