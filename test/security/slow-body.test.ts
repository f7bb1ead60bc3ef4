import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPlatform, type TestPlatform } from "../support/test-platform.js";

/**
 * The attack: hold the gateway's connections open with requests that never finish (headers or a body sent
 * one byte at a time), many at once from one address, or make it read a large body before telling an
 * unauthenticated client no. The listeners here run with small deadlines; the assertions are on outcomes
 * (an answer, a closed connection) with generous bounds, not on exact timings.
 */
const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
const MAX_CONNECTIONS = 3;
/** Far beyond every deadline above, far below the 400 s such a request used to stay open. */
const BOUND_MS = 15_000;

interface Outcome {
  /** Everything the server sent. */
  readonly received: string;
  /** ms from the start until the server closed the connection (undefined: still open at the bound). */
  readonly closedAfterMs: number | undefined;
}

function open(port: number, localAddress = "127.0.0.1"): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress }, () => resolve(socket));
    socket.once("error", reject);
  });
}

/** Writes `head` at once, then `drip` one byte every 200 ms, until the server closes or BOUND_MS passes. */
async function dribble(port: number, head: string, drip: string): Promise<Outcome> {
  const socket = await open(port);
  const started = Date.now();
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk.toString();
  });
  socket.on("error", () => {});
  const closed = new Promise<number>((resolve) => socket.once("close", () => resolve(Date.now() - started)));
  socket.write(head);
  let i = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(drip[i++ % drip.length]!);
  }, 200);
  const bound = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), BOUND_MS));
  const closedAfterMs = await Promise.race([closed, bound]);
  clearInterval(timer);
  socket.destroy();
  return { received, closedAfterMs };
}

/** Resolves to what the server sent once the socket closes or BOUND_MS passes. */
function outcomeOf(socket: Socket): Promise<Outcome> {
  const started = Date.now();
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk.toString();
  });
  socket.on("error", () => {});
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ received, closedAfterMs: undefined }), BOUND_MS);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve({ received, closedAfterMs: Date.now() - started });
    });
  });
}

describe("slow requests and connection floods on the gateway's listeners", () => {
  let platform: TestPlatform;
  let port: number;
  let adminPort: number;
  beforeAll(async () => {
    platform = await startTestPlatform({
      env: {
        HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
        HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        HTTP_IDLE_TIMEOUT_MS: "60000",
        HTTP_MAX_CONNECTIONS_PER_ADDRESS: String(MAX_CONNECTIONS),
      },
    });
    port = platform.runtime.gateway.partnerPort;
    adminPort = platform.runtime.gateway.adminPort;
  });
  afterAll(() => platform.close());

  it("cuts off headers sent one byte at a time, on the partner and the admin listener", async () => {
    for (const p of [port, adminPort]) {
      const outcome = await dribble(
        p,
        "GET /balance HTTP/1.1\r\nHost: x\r\n",
        "X-Slow: aaaaaaaaaaaaaaaa\r\n",
      );
      expect(outcome.closedAfterMs).toBeDefined();
      expect(outcome.closedAfterMs!).toBeLessThan(BOUND_MS);
      // If an answer came, it is the stable error body, 408.
      if (outcome.received) {
        expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
        expect(outcome.received).toContain('"code":"REQUEST_TIMEOUT"');
      }
    }
  });

  it("cuts off a body sent one byte at a time with 408 REQUEST_TIMEOUT", async () => {
    // previewQuotations reads its body before the credentials (its documented order), so no
    // credentials are needed to reach the body read.
    const outcome = await dribble(
      port,
      "POST /previewQuotations HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n",
      " ",
    );
    expect(outcome.closedAfterMs).toBeDefined();
    expect(outcome.closedAfterMs!).toBeLessThan(BOUND_MS);
    expect(outcome.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(outcome.received).toContain('"code":"REQUEST_TIMEOUT"');
    expect(outcome.received).toMatch(/"request_id":"[^"]+"/);
  });

  it("closes connections from one address beyond the cap, not those from another address", async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open(port)));
    // Wait until the server has registered all of them (each answers a request).
    for (const socket of held) {
      const answered = new Promise<string>((resolve) => socket.once("data", (c) => resolve(c.toString())));
      socket.write("GET /balance HTTP/1.1\r\nHost: x\r\n\r\n");
      expect(await answered).toMatch(/^HTTP\/1\.1 401 /);
    }
    const extra = await open(port);
    const refused = await outcomeOf(extra);
    expect(refused.received).toBe("");
    expect(refused.closedAfterMs).toBeDefined();

    const other = await open(port, "127.0.0.2");
    const otherOutcome = outcomeOf(other);
    other.write("GET /balance HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect((await otherOutcome).received).toMatch(/^HTTP\/1\.1 401 /);

    // Once one of the held connections closes, the address may open another.
    const closed = new Promise((resolve) => held[0]!.once("close", resolve));
    held[0]!.destroy();
    await closed;
    let answer = "";
    for (let attempt = 0; attempt < 20 && !answer; attempt++) {
      const again = await open(port);
      const outcome = outcomeOf(again);
      again.write("GET /balance HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
      answer = (await outcome).received;
      if (!answer) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    for (const socket of held) socket.destroy();
  });
});

describe("an unauthenticated request with a body the gateway never receives", () => {
  let platform: TestPlatform;
  let port: number;
  beforeAll(async () => {
    // The request deadline is far beyond BOUND_MS, so an answer within it is not a timeout's 408.
    platform = await startTestPlatform({ env: { HTTP_REQUEST_TIMEOUT_MS: "120000" } });
    port = platform.runtime.gateway.partnerPort;
  });
  afterAll(() => platform.close());

  it("answers an unauthenticated request 401 before reading its body, and closes the connection", async () => {
    for (const [path, auth] of [
      ["/executePayout", ""],
      ["/getQuotation", `Authorization: Basic ${Buffer.from("ci_nobody:cs_wrong").toString("base64")}\r\n`],
      ["/webhookConfigs", ""],
    ] as const) {
      const socket = await open(port);
      const outcome = outcomeOf(socket);
      // Headers announce 200 kB (under the body limit); not one byte of it is ever sent.
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n${auth}\r\n`,
      );
      const { received, closedAfterMs } = await outcome;
      expect(received).toMatch(/^HTTP\/1\.1 401 /);
      expect(received).toContain('"code":"AUTHENTICATION_REQUIRED"');
      expect(received.toLowerCase()).toContain("connection: close");
      expect(closedAfterMs).toBeDefined();
      // Answered long before the request deadline could have produced a 408.
      expect(closedAfterMs!).toBeLessThan(BOUND_MS);
    }
  });
});
