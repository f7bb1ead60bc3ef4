import autocannon from "autocannon";

/** One HTTP request of a load run. */
export interface LoadRequest {
  readonly method: "GET" | "POST";
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** What the answer is expected to be; responses are classified against it. */
  readonly expect?: Expectation;
}

/**
 * `ok` answers are the intended 2xx; `intended` names the refusals a request was built to provoke
 * (status and error code), which are therefore not errors of the system under test.
 */
export interface Expectation {
  readonly status: number;
  readonly code?: string;
}

export interface LoadSpec {
  readonly baseUrl: string;
  readonly connections: number;
  readonly durationSeconds: number;
  /** Builds the next request, or `undefined` when the supply of inputs is exhausted (ends the run). */
  readonly next: () => LoadRequest | undefined;
  /** Sees every answer (status and body), e.g. to collect created ids. */
  readonly onAnswer?: (status: number, body: string) => void;
}

export interface LoadResult {
  readonly requests: number;
  readonly durationSeconds: number;
  readonly requestsPerSecond: number;
  readonly latencyMs: {
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly statusCounts: Readonly<Record<string, number>>;
  readonly ok: number;
  /** Refusals the requests were built to provoke. */
  readonly intendedErrors: number;
  /** Anything else: unexpected statuses, connection errors, timeouts. */
  readonly unintendedErrors: number;
  readonly errorSamples: readonly string[];
  /** True when the run ended early because `next` ran out of inputs. */
  readonly exhausted: boolean;
}

const MAX_ERROR_SAMPLES = 5;

/** Drives `spec` with autocannon (one request in flight per connection) and classifies the answers. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const tally = new AnswerTally();
  let exhausted = false;
  let last: LoadRequest | undefined;
  let instance: autocannon.Instance | undefined;
  const request: autocannon.Request = {
    setupRequest: (_defaults, context) => {
      const next = spec.next();
      if (next === undefined) {
        exhausted = true;
        instance?.stop();
      }
      // autocannon needs a request even when stopping; the spare one is sent but marked as such.
      const chosen = next ?? last;
      if (chosen === undefined) throw new Error("the load spec produced no request");
      last = chosen;
      context.expect = next === undefined ? "spare" : chosen.expect;
      return {
        method: chosen.method,
        path: chosen.path,
        headers: { ...chosen.headers },
        ...(chosen.body === undefined ? {} : { body: chosen.body }),
      };
    },
    onResponse: (status, body, context) => {
      if (context.expect === "spare") return;
      spec.onAnswer?.(status, body);
      tally.record(status, body, context.expect as Expectation | undefined);
    },
  };
  instance = autocannon({
    url: spec.baseUrl,
    connections: spec.connections,
    duration: spec.durationSeconds,
    timeout: 30,
    requests: [request],
  });
  const result = await instance;
  return tally.summary(result, exhausted);
}

/** Counts answers by status and by whether they were intended. */
export class AnswerTally {
  private ok = 0;
  private intended = 0;
  private unintended = 0;
  private readonly samples: string[] = [];

  record(status: number, body: string, expect: Expectation | undefined): void {
    const verdict = classifyAnswer(status, body, expect);
    if (verdict === "ok") this.ok++;
    else if (verdict === "intended") this.intended++;
    else {
      this.unintended++;
      if (this.samples.length < MAX_ERROR_SAMPLES) this.samples.push(`${status} ${body.slice(0, 200)}`);
    }
  }

  summary(result: autocannon.Result, exhausted: boolean): LoadResult {
    const statusCounts: Record<string, number> = {};
    for (const [status, { count }] of Object.entries(result.statusCodeStats)) statusCounts[status] = count;
    if (result.errors > 0) statusCounts.connection_errors = result.errors;
    const requests = result.requests.total;
    return {
      requests,
      durationSeconds: result.duration,
      requestsPerSecond: result.duration > 0 ? requests / result.duration : 0,
      latencyMs: {
        p50: result.latency.p50,
        p90: result.latency.p90,
        p99: result.latency.p99,
        max: result.latency.max,
      },
      statusCounts,
      ok: this.ok,
      intendedErrors: this.intended,
      // Connection errors and timeouts never reach onResponse.
      unintendedErrors: this.unintended + result.errors,
      errorSamples: this.samples,
      exhausted,
    };
  }
}

/** `ok` for a 2xx that was expected (or no expectation), `intended` for the provoked refusal. */
export function classifyAnswer(
  status: number,
  body: string,
  expect: Expectation | undefined,
): "ok" | "intended" | "unintended" {
  const expected = expect ?? { status: 200 };
  if (status !== expected.status) return "unintended";
  if (status >= 200 && status < 300) return "ok";
  if (expected.code === undefined) return "intended";
  return errorCodeOf(body) === expected.code ? "intended" : "unintended";
}

function errorCodeOf(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { code?: unknown };
    return typeof parsed.code === "string" ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}
