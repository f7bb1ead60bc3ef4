import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertLedgerInvariants } from "../ledger/support/ledger-invariants.js";
import { ADMIN_TOKEN } from "../support/test-platform.js";
import { adminOperations, type Operation, schemaResolver } from "./support/api-surface.js";
import { createFuzzer, type Fuzzer, fuzzOptions, printStats } from "./support/fuzz-checks.js";
import { type FuzzWorld, startFuzzWorld } from "./support/fuzz-world.js";
import { badAuthorization, SPELLINGS, spell, spelling } from "./support/hostile-values.js";
import { jsonText } from "./support/json-text.js";
import { FuzzRequest, requestFor, valueFor } from "./support/request-arbitrary.js";

/**
 * Every route of the admin listener (taken from the listener itself, so a new route is covered), fuzzed
 * with the admin token like the partner routes; and, without a valid token, under every URL spelling: no
 * route but the probes ever answers 2xx, and nothing is written.
 */
let world: FuzzWorld;
let fuzzer: Fuzzer;
let operations: Operation[];
let guarded: Operation[];

beforeAll(async () => {
  world = await startFuzzWorld();
  operations = adminOperations(world.platform.runtime.gateway.adminApp);
  guarded = operations.filter((op) => op.auth === "bearer");
  fuzzer = await createFuzzer(world, schemaResolver({}));
});
afterAll(async () => {
  printStats(fuzzer);
  await world?.close();
});

/** The route with known ids and a valid body: what a bypass would turn into a 2xx. */
function validRequest(op: Operation): fc.Arbitrary<{ path: string; body: string | undefined }> {
  const ids = op.pathParams.map((name) => fc.constantFrom(...(world.known(name) ?? [name])));
  const body = op.body ? valueFor(op.body, fuzzer.ctx).map(jsonText) : fc.constant(undefined);
  return fc.tuple(fc.tuple(...ids), body).map(([values, text]) => {
    let i = 0;
    return { path: op.template.replace(/\{\w+\}/g, () => encodeURIComponent(values[i++] ?? "")), body: text };
  });
}

const withoutToken = (op: Operation, path: string, body: string | undefined, authorization?: string) =>
  new FuzzRequest(
    op.method,
    path,
    {
      ...(authorization === undefined ? {} : { authorization }),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body,
  );

describe("fuzzing the admin API", () => {
  it("covers every admin route", () => {
    const routes = operations.map((op) => `${op.method} ${op.template}`);
    expect(routes).toContain("POST /admin/partners/{partner_id}/balance/credits");
    expect(routes).toContain("PUT /admin/fx-rates/{currency}");
    expect(guarded.length).toBeGreaterThan(10);
  });

  it("answers every request with the token, built from the routes' shapes then mutated, without a 5xx or a partial write", async () => {
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(op, world, fuzzer.ctx), async (req) => {
          await fuzzer.exchange(op, req);
        }),
        fuzzOptions(op.body ? 70 : 35),
      );
    }
  }, 300_000);

  it("answers no admin route 2xx without the token, under every URL spelling", async () => {
    for (const op of guarded) {
      for (const name of Object.keys(SPELLINGS)) {
        const { path, body } = fc.sample(validRequest(op), { numRuns: 1, seed: 1 })[0]!;
        const req = withoutToken(op, spell(path, { name, rng: 0 }), body);
        const res = await fuzzer.exchange(op, req);
        expect(res.status, `${req.method} ${req.target} without a token`).toBeGreaterThanOrEqual(400);
      }
    }
  }, 300_000);

  it("answers no admin route 2xx with a wrong or malformed token, whatever the spelling", async () => {
    for (const op of guarded) {
      await fc.assert(
        fc.asyncProperty(
          validRequest(op),
          spelling,
          badAuthorization(ADMIN_TOKEN),
          async (valid, spelled, auth) => {
            const req = withoutToken(op, spell(valid.path, spelled), valid.body, auth);
            const res = await fuzzer.exchange(op, req);
            if (res.status < 400)
              throw new Error(`${req.method} ${req.target} answered ${res.status} without the token`);
          },
        ),
        fuzzOptions(20),
      );
    }
  }, 300_000);

  it("leaves books that balance: the ledger's invariants hold after everything the fuzzing did", async () => {
    await assertLedgerInvariants(world.platform.runtime.db);
  });
});
