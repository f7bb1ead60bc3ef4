import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

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
 * A partner's webhook receiver as a partner would write it with node:http: it checks
 * `X-SERVICE-Signature` (base64 HMAC-SHA256 of the raw body with the shared secret) in constant time,
 * answers 401 when it does not match and `{"received": true, "message": "ok"}` when it does.
 */
export async function startSigningReceiver(secret: string): Promise<SigningReceiver> {
  const notifications: Notification[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const rawBody = Buffer.concat(chunks);
      const signatureValid = signatureMatches(secret, rawBody, request.headers["x-service-signature"]);
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

function signatureMatches(secret: string, rawBody: Buffer, header: string | string[] | undefined): boolean {
  if (typeof header !== "string") return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  const received = Buffer.from(header, "base64");
  return received.length === expected.length && timingSafeEqual(received, expected);
}
