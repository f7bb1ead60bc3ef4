import { connect } from "node:net";

/** What a raw HTTP/1.1 exchange answered. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  readonly json: any;
}

/**
 * One HTTP/1.1 request over a plain TCP socket, with the request-target sent exactly as written (`fetch`
 * and `http.request` normalise URLs, so encoded, dot-segment and absolute-form spellings need this).
 */
export function rawRequest(
  port: number,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<RawResponse> {
  const lines = [`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (body !== undefined) {
    lines.push("Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`);
  }
  return rawExchange(port, Buffer.from(`${lines.join("\r\n")}\r\n\r\n${body ?? ""}`));
}

/**
 * Writes `bytes` on a fresh connection and parses the one response. For what `rawRequest` cannot write:
 * a NUL or a bare CR in a header, a malformed request line, a Content-Type left out. A server may answer
 * and close before reading a large body, which resets the connection: an answer already received counts.
 */
export function rawExchange(port: number, bytes: Buffer): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    const chunks: Buffer[] = [];
    const settle = (error?: Error) => {
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (parseError) {
        reject(error ?? parseError);
      }
    };
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (error) => settle(error));
    socket.on("close", () => settle());
  });
}

function parseResponse(raw: Buffer): RawResponse {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`incomplete HTTP response: ${JSON.stringify(raw.toString())}`);
  const [statusLine = "", ...headerLines] = raw.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  if (!status) throw new Error(`bad status line: ${statusLine}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let payload = raw.subarray(end + 4);
  if (headers["transfer-encoding"]?.toLowerCase() === "chunked") payload = dechunk(payload);
  else if (headers["content-length"]) payload = payload.subarray(0, Number(headers["content-length"]));
  const text = payload.toString("utf8");
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status, headers, text, json };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!size) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
