import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One notification as it arrived: the raw bytes, never re-serialised. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly rawBody: Buffer;
  readonly receivedAt: number;
}

export interface ReceiverReply {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly delayMs?: number;
}

export type ReceiverBehaviour = (request: ReceivedRequest, index: number) => ReceiverReply;

/**
 * A partner receiver on 127.0.0.1: records every request with its raw body and answers as `behaviour`
 * says (200 `{}` by default). A real HTTP server, so the dispatcher's socket, headers and timeouts are real.
 */
export interface TestReceiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  behaviour: ReceiverBehaviour;
  /** Waits until `count` requests matched `filter` (all requests by default) and returns them. */
  waitFor(
    count: number,
    filter?: (r: ReceivedRequest) => boolean,
    timeoutMs?: number,
  ): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export async function startTestReceiver(behaviour: ReceiverBehaviour = () => ({ status: 200, body: "{}" })) {
  const requests: ReceivedRequest[] = [];
  let server: Server;
  const receiver = {
    url: "",
    requests,
    behaviour,
    async waitFor(count: number, filter: (r: ReceivedRequest) => boolean = () => true, timeoutMs = 15_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const matched = requests.filter(filter);
        if (matched.length >= count) return matched;
        if (Date.now() > end) {
          throw new Error(`receiver got ${matched.length} of ${count} expected requests in ${timeoutMs} ms`);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  } satisfies TestReceiver;

  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received: ReceivedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        rawBody: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      const index = requests.length;
      requests.push(received);
      const reply = receiver.behaviour(received, index);
      const answer = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
        res.end(reply.body ?? "");
      };
      if (reply.delayMs) setTimeout(answer, reply.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

// Verification as a partner would write it, independent of the dispatcher's code.

/** X-SERVICE-Signature: base64 HMAC-SHA256 of the raw body, compared in constant time. */
export function verifiesServiceSignature(
  secret: string,
  request: ReceivedRequest,
  brand = "service",
): boolean {
  const header = request.headers[`x-${brand.toLowerCase()}-signature`];
  if (typeof header !== "string") return false;
  const expected = createHmac("sha256", secret).update(request.rawBody).digest("base64");
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}

/** Standard Webhooks: `v1,<base64 HMAC of "id.timestamp.body">` with the whsec_ key's bytes. */
export function verifiesStandardWebhookSignature(whsecKey: string, request: ReceivedRequest): boolean {
  const id = request.headers["webhook-id"];
  const timestamp = request.headers["webhook-timestamp"];
  const signatures = request.headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signatures !== "string") return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(whsecKey.replace(/^whsec_/, ""), "base64");
  const mac = createHmac("sha256", key)
    .update(`${id}.${timestamp}.`)
    .update(request.rawBody)
    .digest("base64");
  return signatures.split(" ").some((entry) => entry === `v1,${mac}`);
}

export function jsonOf(request: ReceivedRequest): Record<string, unknown> {
  return JSON.parse(request.rawBody.toString("utf8")) as Record<string, unknown>;
}
