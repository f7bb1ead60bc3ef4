import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A partner's webhook receiver whose health the test switches: it answers `status` to every notification. */
export class SwitchableReceiver {
  status = 500;
  readonly received: { path: string; status: number }[] = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<SwitchableReceiver> {
    const server = createServer();
    const receiver = new SwitchableReceiver(server);
    server.on("request", (req, res) => {
      req.resume();
      req.on("end", () => {
        receiver.received.push({ path: req.url ?? "", status: receiver.status });
        res
          .writeHead(receiver.status, { "content-type": "text/plain" })
          .end(receiver.status < 300 ? "ok" : "down");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
