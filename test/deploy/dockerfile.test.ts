import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { chartDir, repoRoot } from "./render-chart.js";

// No Docker engine here: these check that the Dockerfile, the workspaces and the chart agree.

const dockerfile = readFileSync(join(repoRoot, "Dockerfile"), "utf8");
const workspaces = (
  JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { workspaces: string[] }
).workspaces;
const chartValues = parse(readFileSync(join(chartDir, "values.yaml"), "utf8")) as {
  podSecurityContext: { runAsUser: number; runAsGroup: number };
};

/** Instructions of each stage, keyed by stage name, with line continuations joined. */
function stages(text: string): Map<string, string[]> {
  const lines = text
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));
  const result = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of lines) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(line);
    if (from?.[1]) {
      current = [];
      result.set(from[1], current);
    } else {
      current.push(line);
    }
  }
  return result;
}

const build = stages(dockerfile).get("build") ?? [];
const runtime = stages(dockerfile).get("runtime") ?? [];

describe("Dockerfile", () => {
  it.each(workspaces)("copies the %s manifest before npm install and ships its build output", (workspace) => {
    const copyManifest = build.indexOf(`COPY ${workspace}/package.json ${workspace}/`);
    const install = build.findIndex((l) => l.startsWith("RUN npm install"));
    expect(copyManifest).toBeGreaterThanOrEqual(0);
    expect(copyManifest).toBeLessThan(install);
    const staging = build.find((l) => l.includes("for ws in"));
    expect(staging?.split(/\s+/)).toContain(workspace);
  });

  it("installs production dependencies only in the runtime stage", () => {
    expect(runtime).toContain("ENV NODE_ENV=production");
    expect(runtime.some((l) => /^RUN npm install --omit=dev\b/.test(l))).toBe(true);
    expect(runtime.some((l) => l.startsWith("COPY --from=build /out/ ./"))).toBe(true);
    expect(runtime.some((l) => /^COPY (?!--from)/.test(l))).toBe(false);
  });

  it("binds every listener of a container to all its interfaces (processes default to loopback)", () => {
    expect(runtime).toContain("ENV HOST=0.0.0.0");
  });

  it("installs the runtime's production tree, which reaches the gateway and every service workspace", () => {
    expect(runtime.some((l) => l.includes("npm install --omit=dev --workspace services/runtime"))).toBe(true);
    const manifest = (workspace: string) =>
      JSON.parse(readFileSync(join(repoRoot, workspace, "package.json"), "utf8")) as {
        name: string;
        dependencies?: Record<string, string>;
      };
    const runtimeDeps = Object.keys(manifest("services/runtime").dependencies ?? {});
    // Not runtime dependencies: the SDK is published on its own, the console ships as its built static
    // files (next test).
    const notRuntime = ["services/runtime", "gateway/client", "gateway/console", "test"];
    for (const workspace of workspaces.filter((w) => !notRuntime.includes(w))) {
      expect(runtimeDeps, workspace).toContain(manifest(workspace).name);
    }
  });

  it("ships the operator console's build where the gateway serves it from, and none of its packages", () => {
    const staging = build.find((l) => l.includes("for ws in")) ?? "";
    expect(staging).toContain("test -f /out/gateway/console/dist/index.html");
    const consoleManifest = JSON.parse(
      readFileSync(join(repoRoot, "gateway/console/package.json"), "utf8"),
    ) as {
      dependencies?: Record<string, string>;
    };
    // Bundled into the static files at build time: nothing for --omit=dev to install in the image.
    expect(consoleManifest.dependencies ?? {}).toEqual({});
  });

  it("runs as the numeric non-root user the chart expects", () => {
    const { runAsUser, runAsGroup } = chartValues.podSecurityContext;
    expect(runtime).toContain(`USER ${runAsUser}:${runAsGroup}`);
    expect(runAsUser).toBeGreaterThan(0);
  });

  it("starts the role given as argument, gateway by default", () => {
    expect(runtime).toContain('ENTRYPOINT ["node", "services/runtime/dist/cli.js"]');
    expect(runtime).toContain('CMD ["gateway"]');
    expect(runtime).toContain("WORKDIR /app");
  });
});

describe(".dockerignore", () => {
  const ignored = readFileSync(join(repoRoot, ".dockerignore"), "utf8")
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"));

  it.each(["**/node_modules", "**/dist", ".git", ".data", ".env"])(
    "keeps %s out of the build context",
    (pattern) => {
      expect(ignored).toContain(pattern);
    },
  );
});
