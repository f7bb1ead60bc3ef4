/**
 * A listener that stops promptly on SIGTERM. fastify's close() stops accepting connections and closes
 * the idle keep-alive ones, then waits for every other connection to end. A request that was in flight
 * when close began leaves its connection open after the answer, until the client's next request or the
 * keep-alive timeout (72 s): longer than the 20 s a process gives itself to stop, so it was killed with
 * exit code 1. Here every answer sent once close began carries `Connection: close` (the client then
 * opens a new connection, to a listener that is not stopping), and connections that turn idle are closed.
 */
import type { FastifyInstance } from "fastify";

const REAP_INTERVAL_MS = 100;

export function drainOnClose(app: FastifyInstance): void {
  let closing = false;
  let reaper: NodeJS.Timeout | undefined;
  app.addHook("preClose", async () => {
    closing = true;
    reaper = setInterval(() => app.server.closeIdleConnections(), REAP_INTERVAL_MS);
  });
  app.addHook("onSend", async (_request, reply) => {
    if (closing) reply.header("connection", "close");
  });
  app.addHook("onClose", async () => {
    clearInterval(reaper);
  });
}
