import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "@payouts/client";

/** One notification as it arrived, with the verdict on its signature. */
export interface Notification {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The exact bytes received: the signature covers these, not a re-serialisation. */
  readonly rawBody: Buffer;
  readonly signatureValid: boolean;
}

export interface SigningReceiver {
  readonly url: string;
  readonly notifications: readonly Notification[];
  /** Resolves with the first `count` notifications once that many arrived. */
  waitFor(count: number, timeoutMs: number): Promise<Notification[]>;
  close(): Promise<void>;
}

/**
 * A partner's webhook receiver as a partner would write it with node:http and @payouts/client: it checks
 * both signatures (`X-SERVICE-Signature` and Standard Webhooks, with the timestamp tolerance) over the raw
 * body with `verifyWebhook`, answers 401 when they do not hold and `{"received": true, "message": "ok"}`
 * when they do.
 */
export async function startSigningReceiver(secret: string): Promise<SigningReceiver> {
  const notifications: Notification[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const rawBody = Buffer.concat(chunks);
      const signatureValid = await verifyWebhook(rawBody, request.headers, secret).then(
        () => true,
        () => false,
      );
      notifications.push({ path: request.url ?? "", headers: request.headers, rawBody, signatureValid });
      response.writeHead(signatureValid ? 200 : 401, { "content-type": "application/json" });
      response.end(JSON.stringify(signatureValid ? { received: true, message: "ok" } : { received: false }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    notifications,
    async waitFor(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (notifications.length < count) {
        if (Date.now() > deadline) {
          throw new Error(
            `receiver got ${notifications.length} of ${count} notifications in ${timeoutMs} ms`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return notifications.slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
