/**
 * The fuzz suite's requests on the wire: the target, the headers and the body exactly as generated (no
 * header added but Host, Connection and Content-Length), through the shared raw-socket client.
 */
import { type RawResponse, rawExchange } from "../../support/raw-http.js";

export type { RawResponse };

export interface RawRequest {
  readonly method: string;
  /** The request target exactly as sent: `/a/../b?x=%00`, `http://host/admin/x`. */
  readonly target: string;
  /** Written as Latin-1 bytes, so a header may carry what `fetch` and `node:http` refuse to send. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
}

export function send(port: number, req: RawRequest): Promise<RawResponse> {
  const body = req.body === undefined ? undefined : Buffer.from(req.body, "utf8");
  const lines = [`${req.method} ${req.target} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"];
  for (const [name, value] of Object.entries(req.headers)) lines.push(`${name}: ${value}`);
  if (body) lines.push(`Content-Length: ${body.length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
  return rawExchange(port, body ? Buffer.concat([head, body]) : head);
}
