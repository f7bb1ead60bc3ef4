import { describe, expect, it } from "vitest";
import type { AuditReport, AuditRow } from "./audit.js";
import {
  findingLines,
  markdownReport,
  markdownResumptionTable,
  markdownTable,
  resumptionTable,
  textTable,
} from "./audit-report.js";
import type { Resumption } from "./resumption.js";

const zero = {
  doubleDebits: 0,
  balanceMismatches: 0,
  stuck: 0,
  missingWebhooks: 0,
  badSignatures: 0,
  orderViolations: 0,
  unexpectedExits: 0,
};
const rows: AuditRow[] = [
  { fault: "baseline", payouts: 120, failed: 18, refunded: 21, ...zero },
  { fault: "kill -9 ledger", payouts: 7, failed: 1, refunded: 0, ...zero, unexpectedExits: 1 },
];
const resumptions: Resumption[] = [
  {
    fault: "kill -9 webhooks",
    from: "kill -9",
    at: 5_000,
    limits: { newEventsMs: 10_000, storedMs: 5_000 },
    newEventsMs: 7_420,
    storedMs: 2_060,
  },
  {
    fault: "kafka outage 60 s",
    from: "broker answering",
    at: 9_000,
    limits: { newEventsMs: 5_000 },
    newEventsMs: undefined,
    storedMs: 300,
  },
];
const report: AuditReport = {
  rows,
  total: { fault: "total", payouts: 127, failed: 19, refunded: 21, ...zero, unexpectedExits: 1 },
  findings: [
    {
      fault: "kill -9 ledger",
      check: "unexpectedExits",
      detail: "ledger (pid 9) exited by itself with code 1",
    },
  ],
  resumptions,
  passed: false,
};

describe("audit report", () => {
  it("prints an aligned text table with every column and the total last", () => {
    const lines = textTable(report).split("\n");
    expect(lines[0]).toMatch(
      /^fault +payouts +failed +refunded +double debits +balance mismatches +stuck +missing webhooks +bad signatures +order violations +unexpected exits$/,
    );
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[2]).toMatch(/^baseline +120 +18 +21 +0 +0 +0 +0 +0 +0 +0$/);
    expect(lines.at(-1)).toMatch(/^total +127 +19 +21( +0){6} +1$/);
  });

  it("writes a Markdown table with the total in bold", () => {
    const table = markdownTable(report).split("\n");
    expect(table).toHaveLength(5);
    expect(table[1]).toBe("| :-- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |");
    expect(table[3]).toBe("| kill -9 ledger | 7 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 1 |");
    expect(table[4]).toBe("| **total** | 127 | 19 | 21 | 0 | 0 | 0 | 0 | 0 | 0 | 1 |");
  });

  it("prints each resumption with its limits, '-' where nothing was measured or no limit applies", () => {
    const lines = resumptionTable(resumptions).split("\n");
    expect(lines[0]).toMatch(/^fault +clock starts at +new events +limit +stored deliveries +limit$/);
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
    expect(lines[2]).toMatch(/^kill -9 webhooks +kill -9 +7\.4 s +10\.0 s +2\.1 s +5\.0 s$/);
    expect(lines[3]).toMatch(/^kafka outage 60 s +broker answering +- +5\.0 s +0\.3 s +-$/);
    expect(markdownResumptionTable(resumptions).split("\n")[2]).toBe(
      "| kill -9 webhooks | kill -9 | 7.4 s | 10.0 s | 2.1 s | 5.0 s |",
    );
  });

  it("caps the findings it prints", () => {
    const many = { ...report, findings: Array.from({ length: 5 }, () => report.findings[0]!) };
    expect(findingLines(many, 2)).toEqual([
      "- [kill -9 ledger] unexpectedExits: ledger (pid 9) exited by itself with code 1",
      "- [kill -9 ledger] unexpectedExits: ledger (pid 9) exited by itself with code 1",
      "- … and 3 more (see the JSON file)",
    ]);
  });

  it("writes the verdict, findings, settings, load and timeline into the Markdown report", () => {
    const text = markdownReport(report, {
      mode: "short",
      startedAt: "2026-11-24T22:00:00.000Z",
      durationSeconds: 212,
      settings: { synchronous_commit: "on" },
      load: { requests: 900 },
      timeline: [{ fault: "kill -9 ledger", at: 31.25, note: "killed pid 9" }],
    });
    expect(text).toContain("# Fault-injection run (short): FAILED");
    expect(text).toContain("`npm run chaos -- --short`");
    expect(text).toContain("- [kill -9 ledger] unexpectedExits: ledger (pid 9) exited by itself with code 1");
    expect(text).toContain("## Resumption after faults");
    expect(text).toContain("| kafka outage 60 s | broker answering | - | 5.0 s | 0.3 s | - |");
    expect(text).toContain("- synchronous_commit: on");
    expect(text).toContain("- requests: 900");
    expect(text).toContain("- 31.3 s [kill -9 ledger] killed pid 9");
  });
});
