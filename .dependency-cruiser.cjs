/**
 * The package boundaries, checked by `npm run lint` (dependency-cruiser). Each rule's name is what a
 * violation prints; `test/boundaries/boundary-lint.test.ts` plants one violation of each and asserts the name.
 *
 * Packages are the workspaces of the root package.json. A package's public entry points are the `source`
 * targets of the `exports` a build resolves too (`./internal/*` and `./testdata/*` exist only under the
 * `source` condition, for the test suites); any other package may import those and nothing else.
 *
 * Paths are read from the working directory, so the same rules run on the repository and on a fixture tree.
 */
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

const ROOT = process.cwd();
const SERVICES = "(lookup|pricing|ledger|webhooks|sandbox-rail)";
/** npm packages that domain code may use: pure computation, no I/O (luxon: calendar and zone arithmetic). */
const PURE_LIBRARIES = ["decimal\\.js", "@bufbuild/protobuf", "ipaddr\\.js", "luxon"];
/** Platform modules that domain code may use: pure computation, no I/O. */
const PURE_PLATFORM = [
  "money/",
  "domain-result\\.ts$",
  "digest\\.ts$",
  "rate-limit/",
  "transaction-status\\.ts$",
  "statement-feed\\.ts$",
  "reasons/define-reasons\\.ts$",
];
/**
 * What the services export for the HTTP edge, and all the gateway may import from them: each service's
 * refusal reasons (mapped to HTTP statuses), the ledger's balance limit, the pricing service's preview
 * body check (the edge answers it before the credentials), and the domain lists the API documents spell
 * out (the lookup service's ID document types, the ledger's payout refusal order, batch statuses and reconciliation break types). A new one is added here
 * and to the service's package.json `exports`.
 */
const EDGE_EXPORTS = [
  `^services/${SERVICES}/src/reasons\\.ts$`,
  "^services/ledger/src/limits\\.ts$",
  "^services/pricing/src/preview-body\\.ts$",
  "^services/lookup/src/ic-types\\.ts$",
  "^services/ledger/src/payout-refusals\\.ts$",
  "^services/ledger/src/batch-statuses\\.ts$",
  "^services/ledger/src/reconciliation-breaks\\.ts$",
];

const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const readJson = (file) => JSON.parse(readFileSync(join(ROOT, file), "utf8"));

const packages = readJson("package.json").workspaces.map((dir) => ({
  dir,
  manifest: readJson(`${dir}/package.json`),
}));

/** Regex of the files a package owns: under its folder, but not in a package nested inside it. */
function ownedBy(dir) {
  const nested = packages
    .filter((p) => p.dir.startsWith(`${dir}/`))
    .map((p) => escapeRegex(p.dir.slice(dir.length + 1)));
  return nested.length === 0 ? `^${escapeRegex(dir)}/` : `^${escapeRegex(dir)}/(?!(${nested.join("|")})/)`;
}

/**
 * Regexes of the source files behind a package's public `exports`: the subpaths a build resolves (those with
 * a `default` target). Subpaths that exist only under the `source` condition (`./internal/*`, `./testdata/*`)
 * are for the test suites. A `*` stands for one or more path segments, as in Node.
 */
function publicFiles({ dir, manifest }) {
  return Object.values(manifest.exports ?? {})
    .map((target) =>
      typeof target === "string" ? target : target.default === undefined ? undefined : target.source,
    )
    .filter((target) => typeof target === "string")
    .map((target) => `^${escapeRegex(join(dir, target))}$`.replace("\\*", ".+"));
}

const publicEntryRules = packages
  .filter(({ manifest }) => manifest.exports !== undefined)
  .map((pkg) => ({
    name: "only-public-entry-points",
    comment: `${pkg.manifest.name} is imported by other packages only through the entry points its package.json exports`,
    severity: "error",
    from: { pathNot: [ownedBy(pkg.dir), "^test/"] },
    to: { path: ownedBy(pkg.dir), pathNot: publicFiles(pkg) },
  }));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "Modules form no import cycle.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "service-not-to-other-service",
      comment:
        "A service never imports another service: it calls its RPCs. Shared code lives in services/platform.",
      severity: "error",
      from: { path: `^services/${SERVICES}/` },
      to: { path: `^services/${SERVICES}/`, pathNot: "^services/$1/" },
    },
    {
      name: "platform-not-to-services",
      comment:
        "services/platform is the shared library: it imports no service, not the gateway, not the runtime.",
      severity: "error",
      from: { path: "^services/platform/" },
      to: { path: [`^services/${SERVICES}/`, "^services/runtime/", "^gateway/"] },
    },
    {
      name: "service-not-to-gateway",
      comment: "Services never import the gateway; only the process host (services/runtime) starts it.",
      severity: "error",
      from: { path: "^services/", pathNot: "^services/runtime/" },
      to: { path: "^gateway/" },
    },
    {
      name: "nothing-imports-runtime",
      comment:
        "services/runtime hosts the processes (CLI roles, the one-process mode): it imports the gateway and " +
        "the services, and no package imports it. Only tests start it.",
      severity: "error",
      from: { pathNot: ["^services/runtime/", "^test/"] },
      to: { path: "^services/runtime/" },
    },
    {
      name: "gateway-only-edge-exports-of-services",
      comment:
        "The gateway is the HTTP edge: from a service it imports only what the service exports for the edge " +
        "(EDGE_EXPORTS: reasons, limits, the preview body check, domain lists), never its service module or internals.",
      severity: "error",
      from: { path: "^gateway/" },
      to: { path: `^services/${SERVICES}/`, pathNot: EDGE_EXPORTS },
    },
    {
      name: "gateway-not-to-service-domain-or-store",
      comment: "The gateway holds no business rules and no service's data: it calls the services' RPCs.",
      severity: "error",
      from: { path: "^gateway/" },
      to: { path: `^services/${SERVICES}/src/(domain|store)/` },
    },
    {
      name: "domain-no-io",
      comment: `domain/ code is pure: no node:* module and no npm package but ${PURE_LIBRARIES.join(", ")}.`,
      severity: "error",
      from: { path: "^services/[^/]+/src/domain/", pathNot: "\\.test\\.ts$" },
      to: {
        dependencyTypesNot: ["local"],
        pathNot: [...PURE_LIBRARIES.map((name) => `(^|/)node_modules/${name}/`), "^services/", "^proto/gen/"],
      },
    },
    {
      name: "domain-depends-inward",
      comment:
        "domain/ imports only its own domain/, the generated contracts and platform's pure modules (money, domain-result, rate-limit).",
      severity: "error",
      from: { path: "^services/([^/]+)/src/domain/", pathNot: "\\.test\\.ts$" },
      to: {
        path: "^services/",
        pathNot: ["^services/$1/src/domain/", ...PURE_PLATFORM.map((p) => `^services/platform/src/${p}`)],
      },
    },
    {
      name: "product-not-to-tests",
      comment: "Product code never imports tests, test support or test data.",
      severity: "error",
      from: { path: "^(services|gateway|proto)/", pathNot: "\\.test\\.ts$" },
      to: { path: ["^test/", "\\.test\\.ts$", "/testdata/"] },
    },
    // Gateway layers. api/ is the generic machinery (defining and registering an operation, shapes and their
    // validation); http/ the edge's primitives (errors, bodies, queries, renderers); openapi/ builds the
    // documents; operations/ defines each partner and admin operation. The handlers in routes/ and admin/ sit
    // on top of all of them, and api/ knows no particular operation.
    {
      name: "gateway-handlers-on-top",
      comment:
        "gateway/src/{api,http,openapi,operations} never import the route handlers in gateway/src/{routes,admin}.",
      severity: "error",
      from: { path: "^gateway/src/(api|http|openapi|operations)/" },
      to: { path: "^gateway/src/(routes|admin)/" },
    },
    {
      name: "gateway-api-machinery-generic",
      comment:
        "gateway/src/api is generic machinery: it never imports a particular operation (gateway/src/operations).",
      severity: "error",
      from: { path: "^gateway/src/api/" },
      to: { path: "^gateway/src/operations/" },
    },
    ...publicEntryRules,
  ],
  options: {
    doNotFollow: { path: "(^|/)node_modules/" },
    // Build output and local data of the workspaces; node_modules is not excluded (rules look at what is
    // imported from there) but never followed.
    exclude: { path: "^(proto|test|services/[^/]+|gateway|gateway/[^/]+)/dist/|(^|/)\\.(data|cache)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      // "source" first, as tsx, vitest and the typecheck resolve workspace packages to their TypeScript.
      conditionNames: ["source", "import", "node", "types", "default"],
      extensions: [".ts", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
