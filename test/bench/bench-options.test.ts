import { describe, expect, it } from "vitest";
import { parseBenchOptions, runLimitSeconds, UsageError } from "./bench-options.js";

describe("parseBenchOptions", () => {
  it("defaults to the full run and --quick shortens every phase", () => {
    const full = parseBenchOptions([]);
    const quick = parseBenchOptions(["--quick"]);
    expect(full.quick).toBe(false);
    expect(quick.quick).toBe(true);
    expect(quick.durationSeconds).toBeLessThan(full.durationSeconds);
    expect(quick.pgbench.durationSeconds).toBeLessThan(full.pgbench.durationSeconds);
    expect(quick.webhooks.burstEvents).toBeLessThan(full.webhooks.burstEvents);
    expect(quick.connections).toBe(full.connections);
  });

  it("--only picks parts, the one-hop floors among them", () => {
    expect([...(parseBenchOptions(["--only", "floors,previewQuotations"]).only ?? [])]).toEqual([
      "floors",
      "previewQuotations",
    ]);
    expect(() => parseBenchOptions(["--only", "floor"])).toThrow(UsageError);
  });

  it("--webhook-phases noisy, --noisy-seconds and --noisy-backlog shorten the noisy-neighbour A/B run", () => {
    expect(parseBenchOptions([]).webhooks.phases).toBe("all");
    const options = parseBenchOptions([
      "--webhook-phases",
      "noisy",
      "--noisy-seconds",
      "20",
      "--noisy-backlog",
      "2000",
    ]);
    expect(options.webhooks.phases).toBe("noisy");
    expect(options.webhooks.noisy).toMatchObject({
      phaseSeconds: 20,
      aEvents: 2_000,
      aConfigs: 10,
      bRate: 500,
    });
    expect(() => parseBenchOptions(["--webhook-phases", "burst"])).toThrow(UsageError);
  });

  it("reads the flags in any order", () => {
    const options = parseBenchOptions([
      "--duration",
      "7",
      "--quick",
      "--profile",
      "--no-embedded",
      "--no-build",
    ]);
    expect(options).toMatchObject({
      quick: true,
      durationSeconds: 7,
      profile: true,
      skipEmbedded: true,
      skipBuild: true,
    });
  });

  it.each([[["--fast"]], [["--duration"]], [["--connections", "0"]], [["--duration", "1.5"]]])(
    "refuses %j",
    (argv) => {
      expect(() => parseBenchOptions(argv)).toThrow(UsageError);
    },
  );
});

describe("runLimitSeconds", () => {
  it("grows with the sustained webhook load and leaves the HTTP allowance when webhooks do not run", () => {
    const full = parseBenchOptions([]);
    const longer = parseBenchOptions(["--sustained-seconds", "1200"]);
    expect(longer.webhooks.pacedSeconds).toBe(1200);
    expect(runLimitSeconds(longer) - runLimitSeconds(full)).toBe(600);
    expect(runLimitSeconds(parseBenchOptions(["--only", "lookupPaymentCode"]))).toBe(590);
    expect(runLimitSeconds(parseBenchOptions(["--quick"]))).toBeLessThan(runLimitSeconds(full));
  });
});
