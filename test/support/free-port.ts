import { createServer } from "node:net";

/**
 * Ports are handed out below Linux's ephemeral range (32768–60999), which the kernel gives to outgoing
 * connections: a port probed free there can be taken by some client socket (a test's PostgreSQL or Kafka
 * connection) before the server it was chosen for binds it, and that server fails with EADDRINUSE. Each
 * vitest worker draws from its own slice (VITEST_POOL_ID is unique among the workers running at once), so
 * two workers never race for the same port either.
 */
const RANGE_START = 27_000; // above the bench's fixed ports (BENCH_BASE_PORT, 24080 by default)
const SLICE_SIZE = 500;
const SLICES = 10;

const slice = ((Number(process.env.VITEST_POOL_ID) || process.pid) - 1) % SLICES;
const sliceStart = RANGE_START + slice * SLICE_SIZE;
let next = Math.floor(Math.random() * SLICE_SIZE);
const handedOut = new Set<number>();

/**
 * A TCP port on 127.0.0.1 that is free now and that this process has not handed out before: a server that
 * needs two ports (a broker and its controller, a partner and an admin listener) gets two different ones.
 */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < SLICE_SIZE; tries++) {
    const port = sliceStart + (next++ % SLICE_SIZE);
    if (handedOut.has(port)) continue;
    if (await isFree(port)) {
      handedOut.add(port);
      return port;
    }
  }
  throw new Error(`no free port left in ${sliceStart}–${sliceStart + SLICE_SIZE - 1}`);
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
