import { ApiError, errorFromResponse, unreachable } from "./api-error";

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface CallOptions {
  readonly query?: Query;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly signal?: AbortSignal;
}

/**
 * One admin API call from the browser: same origin (the admin listener serves the console), JSON in and
 * out, `Authorization: Bearer <token>` on every request. Throws ApiError for any non-2xx answer.
 */
export async function call<T>(
  token: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<T> {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { Authorization: `Bearer ${token}`, ...options.headers };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      cache: "no-store",
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw unreachable(error);
  }
  if (!res.ok) throw await errorFromResponse(res);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

export { ApiError };
