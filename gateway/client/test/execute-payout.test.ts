/**
 * executePayout's retry loop against a scripted fetch (a pure unit test: the platform itself is in
 * test/client). What is checked is what the client sends: the same key on every attempt, how often, and
 * after which answers it stops.
 */
import { describe, expect, it } from "vitest";
import { createPayoutsClient, PayoutsError } from "../src/index.js";

const TRANSACTION = { tx_id: "tx_1", status: "PROCESSING" };

type Step = { status: number; body?: unknown; headers?: Record<string, string> } | Error;

function scripted(steps: Step[]) {
  const sent: Request[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push(request.clone());
    const step = steps.shift();
    if (step === undefined) throw new Error("more requests than scripted");
    if (step instanceof Error) throw step;
    return new Response(step.body === undefined ? null : JSON.stringify(step.body), {
      status: step.status,
      headers: { "content-type": "application/json", ...step.headers },
    });
  };
  const client = createPayoutsClient({
    baseUrl: "https://payouts.test/",
    clientId: "ci_test",
    clientSecret: "cs_tëst",
    fetch,
    retry: { baseDelayMs: 1, maxDelayMs: 4 },
  });
  return { client, sent, keys: () => sent.map((r) => r.headers.get("x-idempotency-key")) };
}

const error = (status: number, code: string, headers: Record<string, string> = {}) => ({
  status,
  body: { code, message: code, request_id: "req_1" },
  headers: { "x-request-id": "req_1", ...headers },
});

describe("executePayout retries", () => {
  it("sends the same generated key after no answer, a 503 and 409 IDEMPOTENCY_KEY_IN_USE", async () => {
    const { client, sent, keys } = scripted([
      new TypeError("fetch failed"),
      error(503, "SERVICE_UNAVAILABLE", { "retry-after": "0" }),
      error(409, "IDEMPOTENCY_KEY_IN_USE", { "retry-after": "0" }),
      { status: 200, body: TRANSACTION, headers: { "idempotent-replayed": "true", "x-request-id": "req_4" } },
    ]);
    const result = await client.executePayout({ tx_id: "tx_1" }, { dp: 4, requestId: "order-7" });
    expect(result).toEqual({
      transaction: TRANSACTION,
      idempotencyKey: keys()[0],
      replayed: true,
      attempts: 4,
      request_id: "req_4",
    });
    expect(keys()[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(keys()).size).toBe(1);
    for (const request of sent) {
      expect(request.method).toBe("POST");
      expect(request.url).toBe("https://payouts.test/executePayout?dp=4");
      expect(request.headers.get("x-request-id")).toBe("order-7");
      // UTF-8 credentials, base64 without Buffer.
      expect(request.headers.get("authorization")).toBe(`Basic ${btoa("ci_test:cs_t\u00c3\u00abst")}`);
      expect(await request.json()).toEqual({ tx_id: "tx_1" });
    }
  });

  it("uses the caller's key, and a fresh one per call otherwise", async () => {
    const { client, keys } = scripted([
      { status: 200, body: TRANSACTION },
      { status: 200, body: TRANSACTION },
      { status: 200, body: TRANSACTION },
    ]);
    const mine = await client.executePayout({ tx_id: "tx_1" }, { idempotencyKey: "order-7-payout" });
    expect(mine).toMatchObject({ idempotencyKey: "order-7-payout", replayed: false, attempts: 1 });
    await client.executePayout({ tx_id: "tx_1" });
    await client.executePayout({ tx_id: "tx_1" });
    expect(keys()[0]).toBe("order-7-payout");
    expect(keys()[1]).not.toBe(keys()[2]);
  });

  it.each([
    [400, "MISSING_REQUIRED_FIELD"],
    [401, "AUTHENTICATION_REQUIRED"],
    [404, "TRANSACTION_NOT_FOUND"],
    [409, "TRANSACTION_NOT_PENDING"],
    [422, "IDEMPOTENCY_KEY_REUSED"],
    [429, "RATE_LIMIT_EXCEEDED"],
  ])("never retries %i %s: one request, the typed error with the key", async (status, code) => {
    const { client, sent } = scripted([error(status, code, { "retry-after": "1" })]);
    const failure = await client.executePayout({ tx_id: "tx_1" }, { idempotencyKey: "k-1" }).catch((e) => e);
    expect(failure).toBeInstanceOf(PayoutsError);
    expect(failure).toMatchObject({ status, code, request_id: "req_1", idempotencyKey: "k-1" });
    expect(sent).toHaveLength(1);
  });

  it("gives up after maxAttempts with NETWORK_ERROR naming the key to retry with later", async () => {
    const { client, keys } = scripted(Array.from({ length: 5 }, () => new TypeError("connection reset")));
    const failure = await client.executePayout({ tx_id: "tx_1" }).catch((e) => e);
    expect(failure).toMatchObject({ status: 0, code: "NETWORK_ERROR", idempotencyKey: keys()[0] });
    expect((failure as PayoutsError).cause).toBeInstanceOf(TypeError);
    expect(keys()).toHaveLength(5);
  });

  it("stops when Retry-After asks for more than it may wait, and sends once with retry: false", async () => {
    const long = scripted([error(503, "SERVICE_UNAVAILABLE", { "retry-after": "120" })]);
    await expect(long.client.executePayout({ tx_id: "tx_1" })).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      retryAfterMs: 120_000,
    });
    expect(long.sent).toHaveLength(1);
    const once = scripted([error(500, "INTERNAL")]);
    await expect(once.client.executePayout({ tx_id: "tx_1" }, { retry: false })).rejects.toMatchObject({
      code: "INTERNAL",
    });
    expect(once.sent).toHaveLength(1);
  });

  it("stops waiting when the caller's signal aborts, with the signal's reason", async () => {
    const { client, sent } = scripted([error(503, "SERVICE_UNAVAILABLE", { "retry-after": "10" })]);
    const controller = new AbortController();
    const call = client.executePayout({ tx_id: "tx_1" }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("shutting down")), 20);
    await expect(call).rejects.toThrow("shutting down");
    expect(sent).toHaveLength(1);
  });

  it("reports an answer without the error body as INVALID_RESPONSE (retried when 5xx)", async () => {
    const { client, sent } = scripted([
      { status: 502, body: "<html>bad gateway</html>" },
      { status: 200, body: TRANSACTION },
    ]);
    await expect(client.executePayout({ tx_id: "tx_1" })).resolves.toMatchObject({ attempts: 2 });
    expect(sent).toHaveLength(2);
    const other = scripted([{ status: 404, body: "not json" }]);
    await expect(other.client.getTransaction("tx_1")).rejects.toMatchObject({
      status: 404,
      code: "INVALID_RESPONSE",
    });
  });
});
