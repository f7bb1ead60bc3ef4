export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  readonly json: any;
}

export interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** A JSON call to the gateway; the text is kept too, so exact decimal renderings can be asserted. */
export async function callJson(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<HttpAnswer> {
  const response = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export function basic(credentials: Credentials): Record<string, string> {
  const encoded = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString("base64");
  return { authorization: `Basic ${encoded}` };
}
