/**
 * The partners' webhook receiver: one node:http server, a path per partner (`/p/<key>`, configured as
 * the partner's webhook URL), both signatures verified over the raw bytes with that partner's secret.
 * Every transaction notification is recorded in arrival order with its verdict; a `batch.completed` (the
 * bulk payout fault) is kept apart, with its own verdict. While `failing` is on it answers 500 to everything
 * (the failing-receiver fault); a bad signature gets 401; otherwise 200.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { isAccepted, type NotificationKind, type ReceivedNotification } from "./audit.js";
import { verifySignatures } from "./webhook-signatures.js";

const PATH = /^\/p\/([\w-]+)\/webhooks\/transactions\/(success|failed|refunded)$/;
const BATCH_COMPLETED_PATH = /^\/p\/([\w-]+)\/webhooks\/batches\/completed$/;

/** A `batch.completed` notification as it arrived, and what the receiver answered. */
export interface ReceivedBatchCompletion {
  readonly partnerId: string | undefined;
  readonly batchId: string | undefined;
  readonly eventId: string | undefined;
  readonly answer: number;
}

interface Registered {
  readonly partnerId: string;
  readonly secret: string;
}

export class ChaosReceiver {
  readonly notifications: ReceivedNotification[] = [];
  readonly batchCompletions: ReceivedBatchCompletion[] = [];
  /** Answer 500 to everything while true. */
  failing = false;
  private readonly partners = new Map<string, Registered>();
  private readonly listeners: Array<(n: ReceivedNotification) => void> = [];
  private readonly server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const status = this.record(request, Buffer.concat(chunks));
      response.writeHead(status, { "content-type": "application/json" });
      response.end(
        JSON.stringify(status === 200 ? { received: true, message: "ok" } : { received: false, status }),
      );
    });
  });
  private url = "";

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The webhook URL to configure for a partner; notifications to it are verified with `secret`. */
  register(key: string, partnerId: string, secret: string): string {
    this.partners.set(key, { partnerId, secret });
    return `${this.url}/p/${key}`;
  }

  /** Called for every notification the receiver accepted (answered 200). */
  onAccepted(listener: (n: ReceivedNotification) => void): void {
    this.listeners.push(listener);
  }

  /** Resolves once a notification arrives that the receiver accepts (false after `timeoutMs`). */
  async nextAccepted(timeoutMs: number): Promise<boolean> {
    const from = this.notifications.length;
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.notifications.slice(from).some(isAccepted)) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.closeAllConnections();
      this.server.close(() => resolve());
    });
  }

  private record(request: IncomingMessage, rawBody: Buffer): number {
    const batchMatch = request.method === "POST" ? BATCH_COMPLETED_PATH.exec(request.url ?? "") : null;
    if (batchMatch) return this.recordBatchCompletion(request, rawBody, this.partners.get(batchMatch[1]!));
    const match = request.method === "POST" ? PATH.exec(request.url ?? "") : null;
    const registered = match ? this.partners.get(match[1]!) : undefined;
    const verdict = this.verify(request, rawBody, registered);
    const body = parseBody(rawBody);
    const signed = verdict.service && verdict.standard;
    const status = this.failing ? 500 : signed ? 200 : 401;
    const notification: ReceivedNotification = {
      sequence: this.notifications.length + 1,
      partnerId: registered?.partnerId,
      kind: registered ? (match![2] as NotificationKind) : undefined,
      txId: body.tx_id,
      eventId: body.event_id,
      eventType: body.event_type,
      bodyStatus: body.status,
      bodyDigest: createHash("sha256").update(rawBody).digest("hex"),
      serviceSignatureValid: verdict.service,
      standardSignatureValid: verdict.standard,
      answer: status,
      receivedAt: Date.now(),
    };
    this.notifications.push(notification);
    if (isAccepted(notification)) for (const listener of this.listeners) listener(notification);
    return status;
  }

  private recordBatchCompletion(
    request: IncomingMessage,
    rawBody: Buffer,
    registered: Registered | undefined,
  ): number {
    const verdict = this.verify(request, rawBody, registered);
    const status = this.failing ? 500 : verdict.service && verdict.standard ? 200 : 401;
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(rawBody.toString("utf8")) as Record<string, unknown>;
    } catch {
      // Recorded with no batch id: the audit then finds no accepted completion of the batch.
    }
    this.batchCompletions.push({
      partnerId: registered?.partnerId,
      batchId: typeof body.batch_id === "string" ? body.batch_id : undefined,
      eventId: typeof body.event_id === "string" ? body.event_id : undefined,
      answer: status,
    });
    return status;
  }

  private verify(request: IncomingMessage, rawBody: Buffer, registered: Registered | undefined) {
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === "string" ? value : undefined;
    };
    return registered
      ? verifySignatures({
          secret: registered.secret,
          rawBody,
          serviceSignature: header("x-service-signature"),
          webhookId: header("webhook-id"),
          webhookTimestamp: header("webhook-timestamp"),
          webhookSignature: header("webhook-signature"),
          nowSeconds: Math.floor(Date.now() / 1000),
        })
      : { service: false, standard: false };
  }
}

function parseBody(raw: Buffer): Record<"tx_id" | "event_id" | "event_type" | "status", string | undefined> {
  try {
    const parsed = JSON.parse(raw.toString("utf8")) as Record<string, unknown>;
    const text = (key: string) => (typeof parsed[key] === "string" ? (parsed[key] as string) : undefined);
    return {
      tx_id: text("tx_id"),
      event_id: text("event_id"),
      event_type: text("event_type"),
      status: text("status"),
    };
  } catch {
    return { tx_id: undefined, event_id: undefined, event_type: undefined, status: undefined };
  }
}
