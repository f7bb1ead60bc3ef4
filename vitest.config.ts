import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Workspace packages export their TypeScript sources under the "source" condition, so tests run
// against src/ without a build step. "module" is left out: Node ignores it, and packages such as
// @opentelemetry/api point it at builds only bundlers can load (extensionless ESM imports).
const conditions = ["source", ...defaultServerConditions.filter((c) => c !== "module")];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    // CI also writes a JSON report so .ci/run can close with a plain "N passed, N failed" line.
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: ".cache/vitest-report.json" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "services/*/src/**/*.test.ts",
            "gateway/src/**/*.test.ts",
            "gateway/client/test/**/*.test.ts",
            "test/bench/**/*.test.ts",
            "test/chaos/**/*.test.ts",
            "test/boundaries/**/*.test.ts",
            "test/docs/**/*.test.ts",
          ],
          exclude: ["**/*.int.test.ts", "**/node_modules/**"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts", "services/*/src/**/*.int.test.ts", "gateway/src/**/*.int.test.ts"],
          exclude: [
            "test/bench/**",
            "test/chaos/**",
            "test/boundaries/**",
            "test/docs/**",
            "test/deploy/**",
            "test/console/**",
            "**/node_modules/**",
          ],
          globalSetup: ["test/support/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
          // Runs after the unit and deploy projects, which share the default worker pool.
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          // The operator console in Debian's Chromium (playwright-core, no browser download) against a
          // started platform; the global setup builds the console when its sources changed.
          name: "console",
          include: ["test/console/**/*.test.ts"],
          globalSetup: ["test/support/global-setup.ts", "test/console/support/build-console.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // After the integration project: a browser and a platform together want the machine to themselves.
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: { name: "deploy", include: ["test/deploy/**/*.test.ts"], testTimeout: 120_000 },
      },
    ],
  },
});
