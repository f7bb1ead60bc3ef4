/**
 * The properties every answer of the gateway must have, whatever was sent: no 5xx; `X-Request-Id`; an
 * error body `{code, message, field?, request_id}` on every 4xx; and a refused request writes nothing.
 */

import { STORED_PAYOUT_REFUSALS } from "@payouts/ledger/payout-refusals";
import type fc from "fast-check";
import type { Operation } from "./api-surface.js";
import { type RawRequest, type RawResponse, send } from "./fuzz-http.js";
import type { FuzzWorld } from "./fuzz-world.js";
import { rowCounter } from "./fuzz-world.js";
import type { SchemaContext } from "./request-arbitrary.js";

export class PropertyViolation extends Error {
  override name = "PropertyViolation";
}

const fail = (what: string, res: RawResponse): never => {
  throw new PropertyViolation(
    `${what}: ${res.status} ${JSON.stringify(res.headers)} ${res.text.slice(0, 500)}`,
  );
};

/** Checks one answer: below 500, with X-Request-Id, and the error body when it is an error. */
export function checkAnswer(res: RawResponse): void {
  if (res.status < 100 || res.status >= 500) fail("a 5xx (or no HTTP answer)", res);
  const requestId = res.headers["x-request-id"];
  if (typeof requestId !== "string" || requestId === "") fail("no X-Request-Id", res);
  if (res.status < 400) return;
  const body = res.json;
  if (typeof body !== "object" || body === null) fail("an error without a JSON body", res);
  if (typeof body.code !== "string" || !/^[A-Z][A-Z0-9_]*$/.test(body.code))
    fail("an error without a code", res);
  if (typeof body.message !== "string" || body.message === "") fail("an error without a message", res);
  // A replayed refusal repeats the first answer byte for byte, the first request's id included
  // (services/ledger/README.md, Idempotency); every other error names this request.
  const replayed = res.headers["idempotent-replayed"] === "true";
  if (
    replayed ? typeof body.request_id !== "string" || body.request_id === "" : body.request_id !== requestId
  )
    fail("an error whose request_id is not X-Request-Id", res);
  if (body.field !== undefined && typeof body.field !== "string")
    fail("an error with a non-string field", res);
}

/**
 * Business refusals of executePayout are stored with the idempotency key, so a retry repeats them
 * (services/ledger/README.md): that refusal writes one idempotency row and nothing else.
 */
const STORED_REFUSALS: ReadonlySet<string> = new Set(STORED_PAYOUT_REFUSALS);

function allowedGrowth(op: Operation, res: RawResponse): Record<string, number> {
  if (op.listener === "partner" && op.template === "/executePayout" && STORED_REFUSALS.has(res.json?.code)) {
    return { "ledger.idempotency_keys": 1 };
  }
  return {};
}

export interface Fuzzer {
  /** Sends `req`, checks the answer and, when it is a refusal, that no table changed. */
  exchange(op: Operation, req: RawRequest): Promise<RawResponse>;
  readonly ctx: SchemaContext;
  /** Answers seen per operation, `status code` → count (printed with FUZZ_STATS=1). */
  readonly stats: Map<string, Map<string, number>>;
}

export async function createFuzzer(world: FuzzWorld, resolve: SchemaContext["resolve"]): Promise<Fuzzer> {
  const counts = await rowCounter(world.platform.runtime.db);
  const stats = new Map<string, Map<string, number>>();
  return {
    ctx: { resolve, known: (name) => world.known(name) },
    stats,
    async exchange(op, req) {
      const before = await counts();
      const port = op.listener === "partner" ? world.partnerPort : world.adminPort;
      const res = await send(port, req);
      const route = `${op.method} ${op.template}`;
      const seen = stats.get(route) ?? new Map<string, number>();
      const outcome = `${res.status} ${res.json?.code ?? ""}`.trim();
      seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
      stats.set(route, seen);
      checkAnswer(res);
      if (res.status >= 400) {
        const after = await counts();
        const allowed = allowedGrowth(op, res);
        for (const [table, n] of Object.entries(after)) {
          const growth = n - (before[table] ?? 0);
          if (growth < 0 || growth > (allowed[table] ?? 0)) {
            fail(`a refused request changed ${table} by ${growth}`, res);
          }
        }
      } else {
        world.harvest(res.json);
      }
      return res;
    },
  };
}

/** numRuns scaled by FUZZ_RUNS_FACTOR (default 1); FUZZ_SEED replays a reported seed. */
export function fuzzOptions(numRuns: number): fc.Parameters<unknown> {
  const factor = Number(process.env.FUZZ_RUNS_FACTOR ?? "1");
  const seed = process.env.FUZZ_SEED;
  return {
    numRuns: Math.max(1, Math.round(numRuns * (Number.isFinite(factor) && factor > 0 ? factor : 1))),
    // The report names the seed and the failing request; shrinking would replay requests against a
    // database whose state has moved on, so it is off unless asked for.
    endOnFailure: process.env.FUZZ_SHRINK !== "1",
    ...(seed ? { seed: Number(seed) } : {}),
  };
}

/** With FUZZ_STATS=1, what each operation answered: shows whether the generators get past the validators. */
export function printStats(fuzzer: Fuzzer | undefined): void {
  if (process.env.FUZZ_STATS !== "1" || !fuzzer) return;
  for (const [route, seen] of fuzzer.stats) {
    const list = [...seen].sort(([, a], [, b]) => b - a).map(([k, n]) => `${k}×${n}`);
    console.log(`${route}: ${list.join(", ")}`);
  }
}
