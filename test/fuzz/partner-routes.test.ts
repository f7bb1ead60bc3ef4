import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertLedgerInvariants } from "../ledger/support/ledger-invariants.js";
import { type Operation, partnerOperations, schemaResolver } from "./support/api-surface.js";
import { createFuzzer, type Fuzzer, fuzzOptions, printStats } from "./support/fuzz-checks.js";
import { send } from "./support/fuzz-http.js";
import { type FuzzWorld, startFuzzWorld } from "./support/fuzz-world.js";
import { badBasicAuthorization, spell, spelling } from "./support/hostile-values.js";
import { jsonText } from "./support/json-text.js";
import { FuzzRequest, requestFor, valueFor } from "./support/request-arbitrary.js";

/**
 * Every partner route of the served OpenAPI document, fuzzed with the partner's valid credentials: bodies,
 * path ids, query strings, headers and URL spellings from the documented shapes plus hostile values. No
 * answer is a 5xx; every error has the error body and X-Request-Id; a refused request writes nothing.
 */
let world: FuzzWorld;
let fuzzer: Fuzzer;
let operations: Operation[];

beforeAll(async () => {
  world = await startFuzzWorld();
  const doc = (await send(world.partnerPort, { method: "GET", target: "/openapi.json", headers: {} })).json;
  operations = partnerOperations(doc);
  fuzzer = await createFuzzer(world, schemaResolver(doc));
});
afterAll(async () => {
  printStats(fuzzer);
  await world?.close();
});

describe("fuzzing the partner API", () => {
  it("covers every documented operation", () => {
    expect(operations.length).toBeGreaterThan(15);
    expect(operations.map((op) => `${op.method} ${op.template}`)).toContain("POST /executePayout");
  });

  it("answers every request built from the document's shapes, then mutated, without a 5xx or a partial write", async () => {
    for (const op of operations) {
      await fc.assert(
        fc.asyncProperty(requestFor(op, world, fuzzer.ctx), async (req) => {
          await fuzzer.exchange(op, req);
        }),
        fuzzOptions(op.body ? 80 : 40),
      );
    }
  }, 300_000);

  // Last: failed logins are throttled per address, and every request here comes from 127.0.0.1.
  it("answers no authenticated route 2xx without valid credentials, whatever the URL spelling", async () => {
    const { clientId, clientSecret } = world.partner;
    for (const op of operations.filter((o) => o.auth === "basic")) {
      const ids = op.pathParams.map((name) => fc.constantFrom(...(world.known(name) ?? [name])));
      const body = op.body ? valueFor(op.body, fuzzer.ctx).map(jsonText) : fc.constant(undefined);
      await fc.assert(
        fc.asyncProperty(
          fc.tuple(...ids),
          body,
          fc.option(spelling, { nil: undefined }),
          badBasicAuthorization(clientId, clientSecret),
          async (values, text, spelled, authorization) => {
            let i = 0;
            const path = op.template.replace(/\{\w+\}/g, () => encodeURIComponent(values[i++] ?? ""));
            const req = new FuzzRequest(
              op.method,
              spelled ? spell(path, spelled) : path,
              {
                ...(authorization === undefined ? {} : { authorization }),
                ...(text === undefined ? {} : { "content-type": "application/json" }),
                ...(op.headers.includes("X-Idempotency-Key") ? { "x-idempotency-key": `no-auth-${i}` } : {}),
              },
              text,
            );
            const res = await fuzzer.exchange(op, req);
            if (res.status < 400) throw new Error(`answered ${res.status} without valid credentials`);
          },
        ),
        fuzzOptions(15),
      );
    }
  }, 300_000);

  it("leaves books that balance: the ledger's invariants hold after everything the fuzzing did", async () => {
    await assertLedgerInvariants(world.platform.runtime.db);
  });
});
