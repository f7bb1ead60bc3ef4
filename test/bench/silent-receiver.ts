import { createServer, type Server, type Socket } from "node:net";

/**
 * A receiver that accepts every connection and never answers a byte: the dispatcher's requests to it
 * hang until its own timeout. `stop()` closes the port and every connection it holds.
 */
export class SilentReceiver {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  async start(port: number): Promise<void> {
    this.server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on("error", () => {});
      socket.on("close", () => this.sockets.delete(socket));
      // Reads and discards the request, so the sender's writes never block.
      socket.resume();
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once("error", reject);
      this.server!.listen(port, "127.0.0.1", () => resolve());
    });
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
