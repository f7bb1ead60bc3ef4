import { Agent, request } from "node:http";
import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { drainOnClose } from "./drain-on-close.js";

let app: FastifyInstance | undefined;
const agents: Agent[] = [];

afterEach(async () => {
  for (const agent of agents.splice(0)) agent.destroy();
  await app?.close();
  app = undefined;
});

/** A listener whose `/slow` answers after `release()`; keep-alive as fastify's default (72 s). */
async function startSlowApp(): Promise<{
  url: string;
  release: () => void;
  arrived: Promise<void>;
  closeBegan: Promise<void>;
}> {
  let release!: () => void;
  let arrived!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const arrival = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  let began!: () => void;
  const closeBegan = new Promise<void>((resolve) => {
    began = resolve;
  });
  app = Fastify();
  drainOnClose(app);
  app.addHook("preClose", async () => began());
  app.get("/slow", async () => {
    arrived();
    await released;
    return { ok: true };
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { url, release, arrived: arrival, closeBegan };
}

/** GET with a keep-alive agent: the answer's headers, and a promise that resolves when the server closes the socket. */
function keepAliveGet(url: string): Promise<{ connection: string | undefined; socketClosed: Promise<void> }> {
  const agent = new Agent({ keepAlive: true });
  agents.push(agent);
  return new Promise((resolve, reject) => {
    const req = request(`${url}/slow`, { agent }, (res) => {
      const socketClosed = new Promise<void>((closed) => res.socket.once("close", () => closed()));
      res.resume();
      res.on("end", () => resolve({ connection: res.headers.connection, socketClosed }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("drainOnClose", () => {
  it("answers a request that was in flight when close began with Connection: close, so close ends without waiting for the keep-alive timeout", async () => {
    const { url, release, arrived, closeBegan } = await startSlowApp();
    const answer = keepAliveGet(url);
    await arrived;
    const closing = app!.close();
    await closeBegan;
    release();
    const { connection, socketClosed } = await answer;
    expect(connection).toBe("close");
    await socketClosed;
    await closing;
    app = undefined;
  });

  it("keeps connections alive while the listener is not closing", async () => {
    const { url, release } = await startSlowApp();
    release();
    const { connection } = await keepAliveGet(url);
    expect(connection).toBe("keep-alive");
  });
});
