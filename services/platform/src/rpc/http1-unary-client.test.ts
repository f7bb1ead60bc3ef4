import http from "node:http";
import type net from "node:net";
import { Code, ConnectError, createClient, type Interceptor } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus } from "@payouts/proto/grpc/health/v1/health_pb";
import { afterAll, describe, expect, it } from "vitest";
import { readAppVersion } from "../app-version.js";
import { createLogger } from "../logging/logger.js";
import { CONNECT_ES_VERSION } from "./connect-es-pin.js";
import { startGrpcServer } from "./grpc-server.js";
import { errorOf } from "./http1-unary-client.js";
import { createServiceTransport } from "./service-transport.js";

async function codeOf(call: Promise<unknown>): Promise<Code | "ok"> {
  try {
    await call;
    return "ok";
  } catch (error) {
    return error instanceof ConnectError ? error.code : Code.Unknown;
  }
}

/** A plain HTTP server on a free loopback port that answers every request with `handle`. */
async function rawServer(handle: http.RequestListener): Promise<{ url: string; close(): void }> {
  const server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe("errorOf", () => {
  it("gives Node's socket failures connect-node's codes", () => {
    const nodeError = (code: string) => Object.assign(new Error(code), { code });
    expect(errorOf(nodeError("ECONNREFUSED")).code).toBe(Code.Unavailable);
    expect(errorOf(nodeError("ENOTFOUND")).code).toBe(Code.Unavailable);
    expect(errorOf(nodeError("ECONNRESET")).code).toBe(Code.Aborted);
    expect(errorOf(new Error("wrapped", { cause: nodeError("ECONNRESET") })).code).toBe(Code.Aborted);
    expect(errorOf(new Error("anything else")).code).toBe(Code.Internal);
    const given = new ConnectError("deadline", Code.DeadlineExceeded);
    expect(errorOf(given)).toBe(given);
  });
});

describe("calls through createServiceTransport", async () => {
  const server = await startGrpcServer({
    name: "test",
    port: 0,
    serviceNames: ["payouts.pricing.v1.PricingService"],
    routes: () => {},
    auth: { verifier: undefined },
    logger: createLogger({ service: "test", level: "silent" }),
  });
  afterAll(() => server.close());

  it("answer, many at once over the bounded keep-alive pool", async () => {
    const client = createClient(Health, createServiceTransport(`http://127.0.0.1:${server.port}`));
    const answers = await Promise.all(Array.from({ length: 300 }, () => client.check({ service: "" })));
    expect(new Set(answers.map((a) => a.status))).toEqual(
      new Set([HealthCheckResponse_ServingStatus.SERVING]),
    );
  });

  it("carry the service's error code (an unknown service is NOT_FOUND)", async () => {
    const client = createClient(Health, createServiceTransport(`http://127.0.0.1:${server.port}`));
    expect(await codeOf(client.check({ service: "no.such.Service" }))).toBe(Code.NotFound);
  });

  it("to a port nobody listens on are UNAVAILABLE", async () => {
    const closed = await rawServer(() => {});
    closed.close();
    const client = createClient(Health, createServiceTransport(closed.url));
    expect(await codeOf(client.check({ service: "" }))).toBe(Code.Unavailable);
  });

  it("to a peer that dies during the call are ABORTED (connection reset)", async () => {
    const dying = await rawServer((request) => request.socket.resetAndDestroy());
    try {
      const client = createClient(Health, createServiceTransport(dying.url));
      expect(await codeOf(client.check({ service: "" }))).toBe(Code.Aborted);
    } finally {
      dying.close();
    }
  });

  it("end when the caller's signal aborts (CANCELED), and an interceptor's req.signal follows the deadline", async () => {
    const silent = await rawServer(() => {});
    try {
      const caller = new AbortController();
      const client = createClient(Health, createServiceTransport(silent.url));
      const call = codeOf(client.check({ service: "" }, { signal: caller.signal }));
      setTimeout(() => caller.abort(), 50);
      expect(await call).toBe(Code.Canceled);

      const reasons: unknown[] = [];
      const watching: Interceptor = (next) => (req) => {
        req.signal.addEventListener("abort", () => reasons.push(req.signal.reason));
        return next(req);
      };
      const watched = createClient(Health, createServiceTransport(silent.url, [watching]));
      expect(await codeOf(watched.check({ service: "" }, { timeoutMs: 100 }))).toBe(Code.DeadlineExceeded);
      expect(reasons.map((r) => ConnectError.from(r).code)).toEqual([Code.DeadlineExceeded]);
    } finally {
      silent.close();
    }
  });

  it("read an error status without a Connect body by its HTTP status (a proxy's 502 is UNAVAILABLE)", async () => {
    const proxy = await rawServer((_request, response) => {
      response.writeHead(502, { "content-type": "text/plain" });
      response.end("bad gateway");
    });
    try {
      const client = createClient(Health, createServiceTransport(proxy.url));
      expect(await codeOf(client.check({ service: "" }))).toBe(Code.Unavailable);
    } finally {
      proxy.close();
    }
  });

  it("refuse an answer that is not a binary Connect message", async () => {
    const wrong = await rawServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
    });
    try {
      const client = createClient(Health, createServiceTransport(wrong.url));
      expect(await codeOf(client.check({ service: "" }))).toBe(Code.Internal);
    } finally {
      wrong.close();
    }
  });

  it("to a peer that never answers end at their deadline", async () => {
    const silent = await rawServer(() => {});
    try {
      const client = createClient(Health, createServiceTransport(silent.url));
      const started = Date.now();
      expect(await codeOf(client.check({ service: "" }, { timeoutMs: 200 }))).toBe(Code.DeadlineExceeded);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      silent.close();
    }
  });

  it("name the platform's client and its version in User-Agent, unless the caller names one", async () => {
    const agents: (string | undefined)[] = [];
    const recording = await rawServer((request, response) => {
      agents.push(request.headers["user-agent"]);
      response.writeHead(200, { "content-type": "application/proto" });
      response.end();
    });
    try {
      const client = createClient(Health, createServiceTransport(recording.url));
      await client.check({ service: "" });
      await client.check({ service: "" }, { headers: { "user-agent": "operator-probe/1" } });
      expect(agents).toEqual([
        `payouts-rpc/${readAppVersion()} (connect-es/${CONNECT_ES_VERSION} wire compatible)`,
        "operator-probe/1",
      ]);
    } finally {
      recording.close();
    }
  });
});
