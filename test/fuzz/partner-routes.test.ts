import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Operation, partnerOperations, schemaResolver } from "./support/api-surface.js";
import { createFuzzer, type Fuzzer, fuzzOptions, printStats } from "./support/fuzz-checks.js";
import { send } from "./support/fuzz-http.js";
import { type FuzzWorld, startFuzzWorld } from "./support/fuzz-world.js";
import { requestFor } from "./support/request-arbitrary.js";

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
        fuzzOptions(op.body ? 60 : 30),
      );
    }
  }, 300_000);
});
