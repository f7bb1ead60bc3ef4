/** Clients of the partner and admin APIs for seeding and checks (not for measured load). */
import { createPayoutsClient, type PayoutsClient } from "@payouts/client";
import { type ApiResponse, callJson } from "../support/call-json.js";

export interface Credentials {
  readonly clientId: string;
  readonly clientSecret: string;
}

export type ApiAnswer = ApiResponse;

export { callJson };

/** Calls an API and insists on the expected status. */
export async function expectJson(
  expected: number,
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<ApiAnswer> {
  const answer = await callJson(url, method, headers, body);
  if (answer.status !== expected) {
    throw new Error(`${method} ${url} answered ${answer.status} (expected ${expected}): ${answer.text}`);
  }
  return answer;
}

/** The partner and admin listeners of one running platform. */
export interface PlatformEndpoints {
  readonly partnerUrl: string;
  readonly adminUrl: string;
  readonly adminToken: string;
}

export function adminCall(
  platform: PlatformEndpoints,
  expected: number,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return expectJson(
    expected,
    `${platform.adminUrl}${path}`,
    method,
    { authorization: `Bearer ${platform.adminToken}`, ...headers },
    body,
  );
}

/**
 * The partner API through @payouts/client, as integrators call it. No retries: a failed seeding or check
 * call fails the run at once, as an error in the measured load counts as one.
 */
export function partnerClient(platform: PlatformEndpoints, creds: Credentials): PayoutsClient {
  return createPayoutsClient({
    baseUrl: platform.partnerUrl,
    clientId: creds.clientId,
    clientSecret: creds.clientSecret,
    retry: false,
  });
}

/** Runs `task` over `items` with at most `concurrency` in flight; answers in input order. */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  concurrency: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
