/**
 * The boundary lint (`npm run lint:boundaries`: dependency-cruiser with the root `.dependency-cruiser.cjs`)
 * must fail on every kind of violation the rules name, and pass on the repository.
 *
 * The violations are planted in a fixture tree written to a temporary folder: a root package.json with
 * workspaces, packages whose `exports` list their entry points the way the real ones do, and node_modules
 * links to them, so the checker resolves `@payouts/*` imports exactly as in the repository. The real tree is
 * never written to.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const CONFIG = join(REPO, ".dependency-cruiser.cjs");
const CLI = join(REPO, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

interface Violation {
  readonly rule: { readonly name: string };
  readonly from: string;
  readonly to: string;
}

interface Cruise {
  /** Exit status and output of the run as `npm run lint:boundaries` makes it (the `err` reporter). */
  readonly status: number | null;
  readonly output: string;
  /** The same violations, from the JSON reporter. */
  readonly violations: Violation[];
}

function cruise(cwd: string, paths: readonly string[]): Cruise {
  const run = (type: string) =>
    spawnSync(process.execPath, [CLI, "--config", CONFIG, "--output-type", type, ...paths], {
      cwd,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
  const lint = run("err");
  const json = run("json");
  if (json.stdout === "") throw new Error(`dependency-cruiser printed nothing: ${json.stderr}`);
  const report = JSON.parse(json.stdout) as { summary: { violations: Violation[] } };
  return { status: lint.status, output: lint.stdout + lint.stderr, violations: report.summary.violations };
}

const entry = (sub: string) => ({
  source: `./src/${sub}.ts`,
  types: `./dist/${sub}.d.ts`,
  default: `./dist/${sub}.js`,
});

const PACKAGES: Record<string, { name: string; exports: Record<string, unknown> }> = {
  "services/platform": {
    name: "@payouts/platform",
    exports: {
      "./money/*": entry("money/*"),
      "./ids": entry("ids"),
      "./internal/*": { source: "./src/*.ts" },
    },
  },
  "services/lookup": {
    name: "@payouts/lookup",
    exports: {
      "./lookup-service": entry("lookup-service"),
      "./reasons": entry("reasons"),
      "./internal/*": { source: "./src/*.ts" },
      "./testdata/*": { source: "./testdata/*.ts" },
    },
  },
  "services/pricing": {
    name: "@payouts/pricing",
    exports: { "./pricing-service": entry("pricing-service"), "./internal/*": { source: "./src/*.ts" } },
  },
  gateway: {
    name: "@payouts/gateway",
    exports: { "./edge": entry("edge"), "./internal/*": { source: "./src/*.ts" } },
  },
  "services/runtime": {
    name: "@payouts/runtime",
    exports: { "./embedded-runtime": entry("embedded-runtime"), "./internal/*": { source: "./src/*.ts" } },
  },
};

/** Files of the fixture: a clean core, then one planted violation per rule. */
const FILES: Record<string, string> = {
  // Clean: what the rules allow.
  "services/platform/src/money/decimal.ts": "export const Dec = (text: string) => text;\n",
  "services/platform/src/ids.ts":
    'import { randomBytes } from "node:crypto";\nexport const newId = () => randomBytes(4);\n',
  "services/platform/src/rpc/health.ts": "export const health = 1;\n",
  "services/lookup/src/domain/amount.ts":
    'import { Dec } from "@payouts/platform/money/decimal";\nexport const amount = Dec("1");\n',
  "services/lookup/src/store/customer-store.ts": 'import { Pool } from "pg";\nexport const store = Pool;\n',
  "services/lookup/src/lookup-service.ts":
    'import { amount } from "./domain/amount.js";\nimport { store } from "./store/customer-store.js";\nexport const lookup = [amount, store];\n',
  "services/pricing/src/domain/preview.ts": "export const preview = 1;\n",
  "services/pricing/src/pricing-service.ts":
    'import { preview } from "./domain/preview.js";\nexport const pricing = preview;\n',
  "services/lookup/src/reasons.ts": 'export const LOOKUP_REASONS = ["NOT_FOUND"];\n',
  "gateway/src/edge.ts":
    'import { LOOKUP_REASONS } from "@payouts/lookup/reasons";\nexport const edge = LOOKUP_REASONS;\n',
  "services/runtime/src/embedded-runtime.ts":
    'import { edge } from "@payouts/gateway/edge";\nimport { lookup } from "@payouts/lookup/lookup-service";\nimport { pricing } from "@payouts/pricing/pricing-service";\nexport const runtime = [edge, lookup, pricing];\n',
  "test/lookup.test.ts":
    'import { store } from "@payouts/lookup/internal/store/customer-store";\nexport const t = store;\n',
  "test/platform.test.ts":
    'import { runtime } from "@payouts/runtime/embedded-runtime";\nexport const p = runtime;\n',

  // domain-no-io
  "services/lookup/src/domain/reads-files.ts":
    'import { readFileSync } from "node:fs";\nimport { Pool } from "pg";\nexport const x = [readFileSync, Pool];\n',
  // domain-depends-inward
  "services/lookup/src/domain/reads-store.ts":
    'import { store } from "../store/customer-store.js";\nimport { newId } from "@payouts/platform/ids";\nexport const y = [store, newId];\n',
  // service-not-to-other-service
  "services/lookup/src/handlers/prices.ts":
    'import { pricing } from "@payouts/pricing/pricing-service";\nexport const z = pricing;\n',
  // gateway-not-to-service-domain-or-store and only-public-entry-points
  "gateway/src/routes/preview-route.ts":
    'import { preview } from "@payouts/pricing/internal/domain/preview";\nexport const r = preview;\n',
  // only-public-entry-points (a platform module that is not exported)
  "gateway/src/health-route.ts":
    'import { health } from "@payouts/platform/internal/rpc/health";\nexport const h = health;\n',
  // platform-not-to-services
  "services/platform/src/knows-lookup.ts":
    'import { lookup } from "@payouts/lookup/lookup-service";\nexport const k = lookup;\n',
  // service-not-to-gateway
  "services/pricing/src/calls-gateway.ts":
    'import { edge } from "@payouts/gateway/edge";\nexport const g = edge;\n',
  // nothing-imports-runtime
  "gateway/src/hosts-itself.ts":
    'import { runtime } from "@payouts/runtime/embedded-runtime";\nexport const hosts = runtime;\n',
  // gateway-only-edge-exports-of-services (a public entry point, but not one for the edge)
  "gateway/src/runs-lookup.ts":
    'import { lookup } from "@payouts/lookup/lookup-service";\nexport const runs = lookup;\n',
  // no-circular
  "services/pricing/src/cycle-a.ts": 'import { b } from "./cycle-b.js";\nexport const a = () => b;\n',
  "services/pricing/src/cycle-b.ts": 'import { a } from "./cycle-a.js";\nexport const b = () => a;\n',
  // product-not-to-tests
  "gateway/src/uses-test.ts": 'import { t } from "../../test/lookup.test.js";\nexport const u = t;\n',
  "services/lookup/testdata/qr-samples.ts": 'export const QR = "000201";\n',
  "gateway/src/uses-testdata.ts":
    'import { QR } from "@payouts/lookup/testdata/qr-samples";\nexport const q = QR;\n',
  // gateway-handlers-on-top: the document builder and an operation reach up into the handlers
  "gateway/src/routes/quote-route.ts":
    'import { quote } from "../operations/quote-api.js";\nexport const qr = quote;\n',
  "gateway/src/operations/quote-api.ts":
    'import { qr } from "../admin/quote-admin.js";\nexport const quote = qr;\n',
  "gateway/src/admin/quote-admin.ts": "export const qr = 1;\n",
  "gateway/src/openapi/document.ts":
    'import { qr } from "../routes/quote-route.js";\nexport const doc = qr;\n',
  // gateway-api-machinery-generic
  "gateway/src/api/operation.ts":
    'import { quote } from "../operations/quote-api.js";\nexport const op = quote;\n',
};

describe("the boundary lint", () => {
  let fixture: string;
  let result: ReturnType<typeof cruise>;

  beforeAll(() => {
    fixture = mkdtempSync(join(tmpdir(), "boundary-lint-"));
    const write = (file: string, text: string) => {
      mkdirSync(dirname(join(fixture, file)), { recursive: true });
      writeFileSync(join(fixture, file), text);
    };
    write(
      "package.json",
      JSON.stringify({ name: "fixture", private: true, workspaces: Object.keys(PACKAGES) }),
    );
    write(
      "tsconfig.json",
      JSON.stringify({
        compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext", customConditions: ["source"] },
      }),
    );
    for (const [dir, { name, exports }] of Object.entries(PACKAGES)) {
      write(`${dir}/package.json`, JSON.stringify({ name, type: "module", exports }));
      mkdirSync(join(fixture, "node_modules", "@payouts"), { recursive: true });
      symlinkSync(join(fixture, dir), join(fixture, "node_modules", name), "dir");
    }
    write("node_modules/pg/package.json", JSON.stringify({ name: "pg", main: "index.js" }));
    write("node_modules/pg/index.js", "exports.Pool = class Pool {};\n");
    for (const [file, text] of Object.entries(FILES)) write(file, text);
    result = cruise(fixture, ["services", "gateway", "test"]);
  }, 60_000);

  afterAll(() => {
    if (fixture) rmSync(fixture, { recursive: true, force: true });
  });

  const found = (rule: string) =>
    result.violations.filter((v) => v.rule.name === rule).map((v) => `${v.from} → ${v.to}`);

  it("fails, naming each rule that was broken", () => {
    const rules = [
      "domain-no-io",
      "domain-depends-inward",
      "service-not-to-other-service",
      "gateway-not-to-service-domain-or-store",
      "gateway-only-edge-exports-of-services",
      "nothing-imports-runtime",
      "only-public-entry-points",
      "platform-not-to-services",
      "service-not-to-gateway",
      "no-circular",
      "product-not-to-tests",
      "gateway-handlers-on-top",
      "gateway-api-machinery-generic",
    ];
    expect(result.status).not.toBe(0);
    for (const rule of rules) expect(result.output).toContain(`error ${rule}:`);
    expect(new Set(result.violations.map((v) => v.rule.name))).toEqual(new Set(rules));
  });

  it("refuses node:* modules and I/O libraries in domain/ code", () => {
    expect(found("domain-no-io").sort()).toEqual([
      "services/lookup/src/domain/reads-files.ts → fs",
      "services/lookup/src/domain/reads-files.ts → node_modules/pg/index.js",
    ]);
  });

  it("refuses domain/ code that reaches outwards, to a store or platform's I/O", () => {
    expect(found("domain-depends-inward").sort()).toEqual([
      "services/lookup/src/domain/reads-store.ts → services/lookup/src/store/customer-store.ts",
      "services/lookup/src/domain/reads-store.ts → services/platform/src/ids.ts",
    ]);
  });

  it("refuses a service importing another service, platform importing a service, a service the gateway", () => {
    expect(found("service-not-to-other-service")).toEqual([
      "services/lookup/src/handlers/prices.ts → services/pricing/src/pricing-service.ts",
    ]);
    expect(found("platform-not-to-services")).toEqual([
      "services/platform/src/knows-lookup.ts → services/lookup/src/lookup-service.ts",
    ]);
    expect(found("service-not-to-gateway")).toEqual([
      "services/pricing/src/calls-gateway.ts → gateway/src/edge.ts",
    ]);
  });

  it("refuses any package importing the process host, which only tests may start", () => {
    expect(found("nothing-imports-runtime")).toEqual([
      "gateway/src/hosts-itself.ts → services/runtime/src/embedded-runtime.ts",
    ]);
  });

  it("refuses the gateway importing from a service anything but what it exports for the edge", () => {
    expect(found("gateway-only-edge-exports-of-services").sort()).toEqual([
      "gateway/src/routes/preview-route.ts → services/pricing/src/domain/preview.ts",
      "gateway/src/runs-lookup.ts → services/lookup/src/lookup-service.ts",
      "gateway/src/uses-testdata.ts → services/lookup/testdata/qr-samples.ts",
    ]);
  });

  it("refuses the gateway reaching a service's domain or store, and any import past the exports", () => {
    expect(found("gateway-not-to-service-domain-or-store")).toEqual([
      "gateway/src/routes/preview-route.ts → services/pricing/src/domain/preview.ts",
    ]);
    expect(found("only-public-entry-points").sort()).toEqual([
      "gateway/src/health-route.ts → services/platform/src/rpc/health.ts",
      "gateway/src/routes/preview-route.ts → services/pricing/src/domain/preview.ts",
      "gateway/src/uses-testdata.ts → services/lookup/testdata/qr-samples.ts",
    ]);
  });

  it("refuses import cycles and product code importing tests", () => {
    expect(found("no-circular").length).toBeGreaterThan(0);
    expect(found("no-circular").every((v) => v.startsWith("services/pricing/src/cycle-"))).toBe(true);
    expect(found("product-not-to-tests").sort()).toEqual([
      "gateway/src/uses-test.ts → test/lookup.test.ts",
      "gateway/src/uses-testdata.ts → services/lookup/testdata/qr-samples.ts",
    ]);
  });

  it("refuses the gateway's lower layers importing the route handlers, and api/ knowing an operation", () => {
    expect(found("gateway-handlers-on-top").sort()).toEqual([
      "gateway/src/openapi/document.ts → gateway/src/routes/quote-route.ts",
      "gateway/src/operations/quote-api.ts → gateway/src/admin/quote-admin.ts",
    ]);
    expect(found("gateway-api-machinery-generic")).toEqual([
      "gateway/src/api/operation.ts → gateway/src/operations/quote-api.ts",
    ]);
  });

  it("lets tests reach internals through ./internal/*, and passes the clean files", () => {
    const clean = [
      "amount.ts",
      "customer-store.ts",
      "lookup-service.ts",
      "reasons.ts",
      "edge.ts",
      "embedded-runtime.ts",
      "lookup.test.ts",
      "platform.test.ts",
      "ids.ts",
      "quote-route.ts",
      "quote-admin.ts",
    ];
    for (const v of result.violations) {
      expect(clean.some((file) => v.from.endsWith(`/${file}`))).toBe(false);
    }
  });

  it("passes on the repository", () => {
    const real = cruise(REPO, ["services", "gateway", "proto/gen", "test"]);
    expect(real.violations).toEqual([]);
    expect(real.status).toBe(0);
    expect(real.output).toContain("no dependency violations found");
  }, 120_000);
});
