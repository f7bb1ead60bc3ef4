import { createServer } from "node:net";

const handedOut = new Set<number>();

/**
 * A TCP port on 127.0.0.1 that was free a moment ago and that this process has not handed out before:
 * two probes in a row can otherwise get the same just-released port back, and a server that needs two
 * ports (a broker and its controller, a partner and an admin listener) would then fail to start.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await probe();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function probe(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
