import {
  createReceiverClient,
  type ReceiverClient,
  type ReceiverClientOptions,
} from "@payouts/webhooks/internal/delivery/receiver-client";
import { MAX_RESPONSE_BODY_BYTES } from "@payouts/webhooks/internal/domain/delivery-outcome";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestReceiver, type TestReceiver } from "./support/test-receiver.js";

/** The dispatcher's HTTP client against a real local server: timeouts, redirects, caps, resolution. */
describe("receiver client", () => {
  let receiver: TestReceiver;
  const body = Buffer.from('{"a":1}');
  const clients: ReceiverClient[] = [];
  const newClient = (options: ReceiverClientOptions) => {
    const client = createReceiverClient(options);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    receiver = await startTestReceiver((request) => {
      if (request.path === "/slow") return { status: 200, delayMs: 1000 };
      if (request.path === "/redirect") return { status: 302, headers: { location: "/elsewhere" } };
      if (request.path === "/large") return { status: 200, body: "x".repeat(3 * MAX_RESPONSE_BODY_BYTES) };
      return { status: 201, body: "created", headers: { "retry-after": "7" } };
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await receiver.close();
  });

  it("posts the exact bytes with the given headers and reports status, Retry-After and body", async () => {
    const client = newClient({ allowPrivate: true, timeoutMs: 2000 });
    const answer = await client({ url: `${receiver.url}/ok`, headers: { "X-Test": "1" }, body });
    expect(answer).toMatchObject({ status: 201, retryAfter: "7" });
    expect("body" in answer && answer.body.toString()).toBe("created");
    const request = receiver.requests.at(-1)!;
    expect(request.rawBody.equals(body)).toBe(true);
    expect(request.headers["x-test"]).toBe("1");
    expect(request.headers["content-length"]).toBe(String(body.length));
  });

  it("stops a request in flight when its signal aborts (the claim's lease is running out)", async () => {
    const client = newClient({ allowPrivate: true, timeoutMs: 5000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("the claim's lease is running out")), 100);
    const answer = await client({
      url: `${receiver.url}/slow`,
      headers: {},
      body,
      signal: controller.signal,
    });
    // Abandoned on this side: marked local, so it does not count against the receiver's circuit.
    expect(answer).toMatchObject({
      error: "attempt abandoned: the claim's lease is running out",
      local: true,
    });
    expect(answer.latencyMs).toBeLessThan(1000);
  });

  it("resolves host names through the vetted lookup when private addresses are allowed", async () => {
    const client = newClient({ allowPrivate: true, timeoutMs: 2000 });
    const answer = await client({ url: receiver.url.replace("127.0.0.1", "localhost"), headers: {}, body });
    expect(answer).toMatchObject({ status: 201 });
  });

  it("refuses a receiver on a port outside WEBHOOK_ALLOWED_PORTS, before connecting", async () => {
    const seen = receiver.requests.length;
    const port = Number(new URL(receiver.url).port);
    const refusing = newClient({ allowPrivate: true, allowedPorts: [443], timeoutMs: 2000 });
    const answer = await refusing({ url: `${receiver.url}/ok`, headers: {}, body });
    expect(answer).toMatchObject({ error: expect.stringContaining("url port must be one of 443") });
    expect(receiver.requests.length).toBe(seen);
    const allowing = newClient({ allowPrivate: true, allowedPorts: [443, port], timeoutMs: 2000 });
    expect(await allowing({ url: `${receiver.url}/ok`, headers: {}, body })).toMatchObject({ status: 201 });
  });

  it("refuses a name that resolves to a forbidden address, before connecting", async () => {
    const seen = receiver.requests.length;
    const client = newClient({
      allowPrivate: false,
      timeoutMs: 2000,
      resolve: async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "10.0.0.8", family: 4 },
      ],
    });
    const answer = await client({ url: "http://rebinding.example.test/hook", headers: {}, body });
    expect(answer).toMatchObject({
      error:
        "refused: rebinding.example.test resolves to 10.0.0.8, which is a loopback, private, link-local or otherwise non-public address",
    });
    expect(receiver.requests.length).toBe(seen);
  });

  it("connects to the address the lookup vetted, not to a second resolution", async () => {
    const port = new URL(receiver.url).port;
    const client = newClient({
      allowPrivate: true,
      timeoutMs: 2000,
      resolve: async () => [{ address: "127.0.0.1", family: 4 }],
    });
    const answer = await client({ url: `http://vetted.example.test:${port}/ok`, headers: {}, body });
    expect(answer).toMatchObject({ status: 201 });
    expect(receiver.requests.at(-1)!.headers.host).toBe(`vetted.example.test:${port}`);
  });

  it("keeps connections alive per origin: the host is resolved and checked per connection, not per request", async () => {
    const port = new URL(receiver.url).port;
    let resolutions = 0;
    const client = newClient({
      allowPrivate: true,
      timeoutMs: 2000,
      resolve: async () => {
        resolutions++;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    for (let i = 0; i < 20; i++) {
      expect(await client({ url: `http://kept.example.test:${port}/ok`, headers: {}, body })).toMatchObject({
        status: 201,
      });
    }
    // One connection, or two when the next request is handed out before the first one is free again.
    expect(resolutions).toBeGreaterThanOrEqual(1);
    expect(resolutions).toBeLessThanOrEqual(2);
  });

  it("opens at most connectionsPerOrigin connections to one origin, queueing the rest", async () => {
    const port = new URL(receiver.url).port;
    let resolutions = 0;
    const client = newClient({
      allowPrivate: true,
      timeoutMs: 5000,
      connectionsPerOrigin: 2,
      resolve: async () => {
        resolutions++;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    const seen = receiver.requests.length;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        client({ url: `http://bounded.example.test:${port}/ok`, headers: {}, body }),
      ),
    );
    expect(answers.every((a) => "status" in a && a.status === 201)).toBe(true);
    expect(receiver.requests.length).toBe(seen + 6);
    expect(resolutions).toBe(2);
  });

  it("gives up after the timeout", async () => {
    const client = newClient({ allowPrivate: true, timeoutMs: 200 });
    const answer = await client({ url: `${receiver.url}/slow`, headers: {}, body });
    expect(answer).toMatchObject({ error: "timed out after 200 ms" });
    // The receiver's failure: it counts against its circuit.
    expect("local" in answer).toBe(false);
    expect(answer.latencyMs).toBeGreaterThanOrEqual(190);
    expect(answer.latencyMs).toBeLessThan(900);
  });

  it("does not follow redirects", async () => {
    const client = newClient({ allowPrivate: true, timeoutMs: 2000 });
    const seen = receiver.requests.length;
    const answer = await client({ url: `${receiver.url}/redirect`, headers: {}, body });
    expect(answer).toMatchObject({ status: 302 });
    expect(receiver.requests.length).toBe(seen + 1);
  });

  it("reads at most one byte past the stored limit of an answer", async () => {
    const client = newClient({ allowPrivate: true, timeoutMs: 2000 });
    const answer = await client({ url: `${receiver.url}/large`, headers: {}, body });
    expect("body" in answer && answer.body.length).toBe(MAX_RESPONSE_BODY_BYTES + 1);
  });
});
