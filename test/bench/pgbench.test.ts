import { describe, expect, it } from "vitest";
import { parsePgbenchSummary, parseTransactionLog } from "./pgbench.js";

// pgbench 15 output of a timed run (abridged to the lines the parser reads and their neighbours).
const SUMMARY = `pgbench (15.18 (Debian 15.18-0+deb12u1))
transaction type: <builtin: TPC-B (sort of)>
scaling factor: 10
query mode: simple
number of clients: 10
number of threads: 2
maximum number of tries: 1
duration: 5 s
number of transactions actually processed: 37527
number of failed transactions: 3 (0.008%)
latency average = 1.333 ms
initial connection time = 9.412 ms
tps = 7500.022484 (without initial connection time)
`;

describe("parsePgbenchSummary", () => {
  it("reads transactions, failures, tps and the average latency", () => {
    expect(parsePgbenchSummary(SUMMARY)).toEqual({
      transactions: 37527,
      failed: 3,
      tps: 7500.022484,
      latencyAverageMs: 1.333,
    });
  });

  it("refuses output that is not a run summary", () => {
    expect(() => parsePgbenchSummary("pgbench: error: connection refused")).toThrow(/pgbench output lacks/);
  });
});

describe("parseTransactionLog", () => {
  it("turns the elapsed microseconds (third field) into milliseconds and skips blank lines", () => {
    const log = "0 1 1250 0 1732150000 123456\n1 1 980 0 1732150000 223456\n\n";
    expect(parseTransactionLog(log)).toEqual([1.25, 0.98]);
  });
});
