/** What a JSON API call answered: status, headers, raw text and the parsed body (undefined when not JSON). */
export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect arbitrary JSON
  readonly json: any;
}

/** One HTTP call with an optional JSON body (a string body is sent as is, for malformed-JSON tests). */
export async function callJson(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<ApiResponse> {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
