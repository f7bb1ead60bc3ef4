/**
 * HTTP calls that send the request target and the body exactly as given. `fetch` normalises URLs (it
 * resolves `..`, re-encodes characters, refuses absolute-form targets), which would hide the spellings the
 * fuzz suite is about; `node:http` sends the target verbatim. `rawExchange` goes one level lower, for bytes
 * `node:http` itself refuses to write (NUL or CR in a header, a malformed request line).
 */
import { request } from "node:http";
import { connect } from "node:net";

export interface RawRequest {
  readonly method: string;
  /** The request target exactly as sent: `/a/../b?x=%00`, `http://host/admin/x`. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
}

export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: the checks inspect arbitrary JSON
  readonly json: any;
}

export function send(port: number, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body = req.body === undefined ? undefined : Buffer.from(req.body, "utf8");
    const outgoing = request(
      {
        host: "127.0.0.1",
        port,
        method: req.method,
        path: req.target,
        headers: { ...req.headers, ...(body ? { "content-length": String(body.length) } : {}) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parseJson(text) });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/** Writes `bytes` on a fresh connection and parses the one response (`Connection: close`). */
export function rawExchange(port: number, bytes: Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const end = raw.indexOf("\r\n\r\n");
      const head = end < 0 ? raw : raw.slice(0, end);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const text = end < 0 ? "" : raw.slice(end + 4);
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
      resolve({ status, headers, text, json: parseJson(text) });
    });
    socket.end(bytes);
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
