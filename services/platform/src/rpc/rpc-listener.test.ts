import http from "node:http";
import http2 from "node:http2";
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { isRpcListenerRequest, listenRpc, protocolOf } from "./rpc-listener.js";

describe("protocolOf", () => {
  const preface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

  it("waits while the bytes are a prefix of the HTTP/2 preface", () => {
    expect(protocolOf(Buffer.from(""))).toBeUndefined();
    expect(protocolOf(Buffer.from("P"))).toBeUndefined();
    expect(protocolOf(Buffer.from("PRI * HTTP/2.0\r\n"))).toBeUndefined();
  });

  it("is HTTP/2 once the whole preface is there, frames or not", () => {
    expect(protocolOf(Buffer.from(preface))).toBe("h2");
    expect(protocolOf(Buffer.from(`${preface}\u0000\u0000\u0000\u0004`))).toBe("h2");
  });

  it("is HTTP/1.1 as soon as a byte differs", () => {
    expect(protocolOf(Buffer.from("PO"))).toBe("http1");
    expect(protocolOf(Buffer.from("GET / HTTP/1.1\r\n"))).toBe("http1");
    expect(protocolOf(Buffer.from("PRI * HTTP/1.1\r\n"))).toBe("http1");
  });
});

describe("one port for HTTP/1.1 and HTTP/2", async () => {
  const seen: string[] = [];
  const listener = await listenRpc(
    (request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk;
      });
      request.on("end", () => {
        const rpc = "stream" in request ? "h2" : isRpcListenerRequest(request) ? "rpc-h1" : "?";
        seen.push(rpc);
        response.end(`${request.httpVersion} ${request.method} ${request.url} ${body}`);
      });
    },
    0,
    "127.0.0.1",
  );
  afterAll(() => listener.close());
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  afterAll(() => agent.destroy());

  function h1Post(path: string, body: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        { host: "127.0.0.1", port: listener.port, method: "POST", path, agent },
        (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => {
            text += chunk;
          });
          response.on("end", () => resolve(text));
        },
      );
      request.on("error", reject);
      // Headers first, the body in a later packet, as connect-node's HTTP/1.1 client sends them.
      request.flushHeaders();
      setTimeout(() => request.end(body), 5);
    });
  }

  it("serves HTTP/1.1 requests, several on one keep-alive connection", async () => {
    expect(await h1Post("/a", "one")).toBe("1.1 POST /a one");
    expect(await h1Post("/b", "two")).toBe("1.1 POST /b two");
    expect(await h1Post("/c", "x".repeat(100_000))).toBe(`1.1 POST /c ${"x".repeat(100_000)}`);
  });

  it("serves an HTTP/1.1 request whose first bytes arrive one at a time", async () => {
    const socket = net.connect(listener.port, "127.0.0.1");
    const raw = "POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";
    const answer = new Promise<string>((resolve) => {
      let text = "";
      socket.on("data", (chunk: Buffer) => {
        text += chunk;
      });
      socket.on("close", () => resolve(text));
    });
    for (const byte of raw.slice(0, 3)) {
      socket.write(byte);
      await new Promise((r) => setTimeout(r, 5));
    }
    socket.write(raw.slice(3));
    expect(await answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*1\.1 POST \/slow ok$/);
  });

  it("serves prior-knowledge HTTP/2 (h2c) on the same port", async () => {
    const session = http2.connect(`http://127.0.0.1:${listener.port}`);
    try {
      const answers = await Promise.all(
        ["/x", "/y"].map(
          (path) =>
            new Promise<string>((resolve, reject) => {
              const stream = session.request({ ":method": "POST", ":path": path });
              let text = "";
              stream.on("data", (chunk: Buffer) => {
                text += chunk;
              });
              stream.on("end", () => resolve(text));
              stream.on("error", reject);
              stream.end("h2 body");
            }),
        ),
      );
      expect(answers).toEqual(["2.0 POST /x h2 body", "2.0 POST /y h2 body"]);
    } finally {
      session.close();
    }
  });

  it("marks HTTP/1.1 connections as RPC connections (the HTTP instrumentation skips them)", () => {
    expect(seen).toContain("rpc-h1");
    expect(seen).toContain("h2");
    expect(seen).not.toContain("?");
  });
});

describe("closing", () => {
  it("stops accepting and ends idle keep-alive connections", async () => {
    const listener = await listenRpc((_request, response) => response.end("ok"), 0, "127.0.0.1");
    const agent = new http.Agent({ keepAlive: true });
    const socket = await new Promise<net.Socket>((resolve, reject) => {
      const request = http.get({ host: "127.0.0.1", port: listener.port, path: "/", agent }, (response) => {
        response.resume();
        response.on("end", () => resolve(request.socket as net.Socket));
      });
      request.on("error", reject);
    });
    const socketClosed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await new Promise((r) => setTimeout(r, 20));
    await listener.close();
    await socketClosed;
    const refused = await new Promise<string>((resolve) => {
      const probe = net.connect(listener.port, "127.0.0.1");
      probe.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
      probe.on("connect", () => {
        probe.destroy();
        resolve("connected");
      });
    });
    expect(refused).toBe("ECONNREFUSED");
    agent.destroy();
  });
});

describe("HTTP/2 bounds", async () => {
  const listener = await listenRpc(
    (request, response) => {
      // Answers once the request body ends: a stream that never sends one stays open and idle.
      request.resume();
      request.on("end", () => response.end("done"));
    },
    0,
    "127.0.0.1",
    undefined,
    { maxConcurrentStreams: 7, streamIdleMs: 300, sessionIdleMs: 800 },
  );
  afterAll(() => listener.close());
  const connect = () => http2.connect(`http://127.0.0.1:${listener.port}`);

  it("advertises its cap on concurrent streams", async () => {
    const session = connect();
    await new Promise<void>((resolve) => session.once("remoteSettings", () => resolve()));
    expect(session.remoteSettings.maxConcurrentStreams).toBe(7);
    session.close();
  });

  it("cancels a stream that stays idle, and serves the next one on the same session", async () => {
    const session = connect();
    const idle = session.request({ ":method": "POST", ":path": "/idle" });
    const code = await new Promise<number>((resolve) => idle.on("close", () => resolve(idle.rstCode)));
    idle.on("error", () => {});
    expect(code).toBe(http2.constants.NGHTTP2_CANCEL);
    const next = session.request({ ":method": "POST", ":path": "/next" });
    next.end();
    let text = "";
    next.on("data", (chunk: Buffer) => {
      text += chunk;
    });
    await new Promise((resolve) => next.on("end", resolve));
    expect(text).toBe("done");
    session.close();
  });

  it("closes a session that stays idle with GOAWAY", async () => {
    const session = connect();
    const started = Date.now();
    await new Promise<void>((resolve) => session.once("goaway", () => resolve()));
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    await new Promise((resolve) => session.once("close", resolve));
    expect(session.closed || session.destroyed).toBe(true);
  });
});
