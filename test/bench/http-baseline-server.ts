/**
 * The HTTP ceiling of the benchmark: the least a Node JSON endpoint can do per request — read the body,
 * parse it, answer a small JSON document. Run as its own process (like the gateway), it prints
 * `PORT=<port>` once listening and stops on SIGTERM.
 */
import { createServer } from "node:http";

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    let amount: unknown = null;
    try {
      const text = Buffer.concat(chunks).toString("utf8");
      amount = text ? (JSON.parse(text) as { amount?: unknown }).amount : null;
    } catch {
      response.writeHead(400, { "content-type": "application/json" }).end('{"code":"INVALID_FIELD"}');
      return;
    }
    const body = JSON.stringify({ quotations: [{ amount, currency: "USD", exchange_rate: 1 }] });
    response.writeHead(200, { "content-type": "application/json" }).end(body);
  });
});

server.keepAliveTimeout = 65_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  process.stdout.write(`PORT=${port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
