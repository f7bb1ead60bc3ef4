import { adminOpenApiDocument, openApiDocument } from "@payouts/gateway/openapi";
import { stringifyJson } from "@payouts/platform/money/json-decimal";
import { createConfig, lintFromString, type NormalizedProblem } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";

/**
 * Both generated documents pass Redocly's standard OpenAPI linter — the `recommended` ruleset that
 * `redocly lint` applies by default — with zero errors, and no warnings but those allowed below, each with
 * its reason. No rule is switched off: an allowed warning is still reported by the linter, only accepted here.
 */
const ALLOWED_WARNINGS: Readonly<Record<string, string>> = {
  "no-server-example.com":
    "the second server is `http://localhost:8080` (admin: 8081), the embedded sandbox that `npm start` runs on the integrator's machine: a real, intended target, not a placeholder",
};
/**
 * Operations whose only success is a redirect, so `operation-2xx-response` warns about them and only them:
 * the OpenID Connect sign-in sends the browser to the provider and back with 302s, never a 2xx body.
 */
const REDIRECT_ONLY_OPERATIONS = ["/admin/oidc/login", "/admin/oidc/callback"].map(
  (path) => `#/paths/${path.replaceAll("/", "~1")}/get/responses`,
);
const isRedirectOnly = (p: NormalizedProblem) =>
  p.ruleId === "operation-2xx-response" &&
  p.location.every((l) => REDIRECT_ONLY_OPERATIONS.includes(l.pointer ?? ""));

async function lint(document: unknown): Promise<NormalizedProblem[]> {
  const config = await createConfig({ extends: ["recommended"] });
  return lintFromString({ source: stringifyJson(document), absoluteRef: "openapi.json", config });
}

const describeProblem = (p: NormalizedProblem) =>
  `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(", ")}`;

describe("the OpenAPI linter (Redocly, recommended)", () => {
  it("is the real linter: it reports a planted mistake", async () => {
    const broken = { ...adminOpenApiDocument(), paths: { "/x": { get: { responses: {} } } } };
    const problems = await lint(broken);
    expect(problems.some((p) => p.severity === "error")).toBe(true);
  });

  it.each([
    ["partner", openApiDocument],
    ["admin", adminOpenApiDocument],
  ])("finds no error and no warning in the %s document", async (_name, build) => {
    const problems = await lint(build());
    const unexpected = problems.filter(
      (p) => p.severity !== "warn" || !(p.ruleId in ALLOWED_WARNINGS || isRedirectOnly(p)),
    );
    expect(unexpected.map(describeProblem)).toEqual([]);
  });
});
