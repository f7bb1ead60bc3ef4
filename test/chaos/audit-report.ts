/** The audit as people read it: a table on the console, and Markdown and JSON files under .cache/. */
import type { AuditReport, AuditRow } from "./audit.js";
import { type Resumption, seconds } from "./resumption.js";

const COLUMNS: ReadonlyArray<readonly [keyof AuditRow, string]> = [
  ["fault", "fault"],
  ["payouts", "payouts"],
  ["failed", "failed"],
  ["refunded", "refunded"],
  ["doubleDebits", "double debits"],
  ["balanceMismatches", "balance mismatches"],
  ["stuck", "stuck"],
  ["missingWebhooks", "missing webhooks"],
  ["badSignatures", "bad signatures"],
  ["orderViolations", "order violations"],
  ["unexpectedExits", "unexpected exits"],
];

/** Findings printed in full; the JSON file keeps them all. */
export const FINDINGS_SHOWN = 40;

function cells(report: AuditReport): string[][] {
  return [...report.rows, report.total].map((row) => COLUMNS.map(([key]) => String(row[key])));
}

/** Fixed-width text: the fault left-aligned, numbers right-aligned, a rule above the total. */
export function textTable(report: AuditReport): string {
  const header = COLUMNS.map(([, title]) => title);
  const body = cells(report);
  const widths = header.map((title, i) => Math.max(title.length, ...body.map((r) => r[i]!.length)));
  const line = (r: readonly string[]) =>
    r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  const rule = widths.map((w) => "-".repeat(w)).join("  ");
  return [line(header), rule, ...body.slice(0, -1).map(line), rule, line(body.at(-1)!)].join("\n");
}

export function markdownTable(report: AuditReport): string {
  const header = COLUMNS.map(([, title]) => title);
  const align = COLUMNS.map((_, i) => (i === 0 ? ":--" : "--:"));
  const rows = cells(report).map((r, i, all) => (i === all.length - 1 ? [`**${r[0]}**`, ...r.slice(1)] : r));
  return [header, align, ...rows].map((r) => `| ${r.join(" | ")} |`).join("\n");
}

const RESUMPTION_HEADER = ["fault", "clock starts at", "new events", "limit", "stored deliveries", "limit"];

function resumptionCells(r: Resumption): string[] {
  return [
    r.fault,
    r.from,
    seconds(r.newEventsMs),
    seconds(r.limits.newEventsMs),
    seconds(r.storedMs),
    seconds(r.limits.storedMs),
  ];
}

/**
 * Time from each fault's mark to the first webhook delivered for an event published after it, and for a
 * delivery stored before it; "-" where nothing of the kind was delivered or no limit applies.
 */
export function resumptionTable(resumptions: readonly Resumption[]): string {
  const body = resumptions.map(resumptionCells);
  const widths = RESUMPTION_HEADER.map((title, i) =>
    Math.max(title.length, ...body.map((r) => r[i]!.length)),
  );
  const line = (r: readonly string[]) =>
    r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [line(RESUMPTION_HEADER), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

export function markdownResumptionTable(resumptions: readonly Resumption[]): string {
  const align = RESUMPTION_HEADER.map((_, i) => (i < 2 ? ":--" : "--:"));
  return [RESUMPTION_HEADER, align, ...resumptions.map(resumptionCells)]
    .map((r) => `| ${r.join(" | ")} |`)
    .join("\n");
}

export function findingLines(report: AuditReport, limit = FINDINGS_SHOWN): string[] {
  const lines = report.findings.slice(0, limit).map((f) => `- [${f.fault}] ${f.check}: ${f.detail}`);
  if (report.findings.length > limit)
    lines.push(`- … and ${report.findings.length - limit} more (see the JSON file)`);
  return lines;
}

/** Everything about a run the files record besides the audit itself. */
export interface RunSummary {
  readonly mode: "short" | "full";
  readonly startedAt: string;
  readonly durationSeconds: number;
  /** Facts checked during the run, e.g. `synchronous_commit: on`. */
  readonly settings: Readonly<Record<string, string>>;
  /** What the load driver saw (requests, retries, answers by status). */
  readonly load: Readonly<Record<string, number>>;
  /** Per phase: when it ran and what the suite did. */
  readonly timeline: ReadonlyArray<{ readonly fault: string; readonly at: number; readonly note: string }>;
}

export function markdownReport(report: AuditReport, run: RunSummary): string {
  return [
    `# Fault-injection run (${run.mode}): ${report.passed ? "PASSED" : "FAILED"}`,
    "",
    `Started ${run.startedAt}, ${run.durationSeconds} s. Produced by \`npm run chaos${run.mode === "short" ? " -- --short" : ""}\` (test/chaos/README.md).`,
    "",
    markdownTable(report),
    "",
    "## Resumption after faults",
    "",
    markdownResumptionTable(report.resumptions),
    "",
    "## Findings",
    "",
    ...(report.findings.length === 0 ? ["None."] : findingLines(report)),
    "",
    "## Settings checked",
    "",
    ...Object.entries(run.settings).map(([k, v]) => `- ${k}: ${v}`),
    "",
    "## Load",
    "",
    ...Object.entries(run.load).map(([k, v]) => `- ${k}: ${v}`),
    "",
    "## Timeline (seconds from start)",
    "",
    ...run.timeline.map((t) => `- ${t.at.toFixed(1)} s [${t.fault}] ${t.note}`),
    "",
  ].join("\n");
}
