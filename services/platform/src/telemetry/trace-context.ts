/**
 * W3C trace context on the carriers this platform uses besides HTTP: outbox rows and Kafka headers
 * (string maps), and spans around units of work that are not requests (a publish, a consumed event, a
 * webhook delivery attempt). With no SDK started these are no-ops.
 */
import {
  type Attributes,
  type Context,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  type SpanKind,
  SpanStatusCode,
  trace,
} from "@opentelemetry/api";
import { suppressTracing } from "@opentelemetry/core";

export { SpanKind } from "@opentelemetry/api";

export const TRACER_NAME = "payouts";

/** The `traceparent` of the active span, for storing beside work that continues later elsewhere. */
export function currentTraceparent(): string | undefined {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** Writes the trace context of `ctx` into a string map (message headers). */
export function injectTraceContext(ctx: Context, headers: Record<string, string>): void {
  propagation.inject(ctx, headers);
}

/** The context a stored or received trace context continues; the root context when there is none. */
export function contextFromHeaders(headers: Readonly<Record<string, string | undefined>>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

export function contextFromTraceparent(traceparent: string | null | undefined): Context {
  return traceparent ? contextFromHeaders({ traceparent }) : ROOT_CONTEXT;
}

export interface SpanOptions {
  readonly kind: SpanKind;
  /** Defaults to the active context. */
  readonly parent?: Context;
  readonly attributes?: Attributes;
  readonly links?: Link[];
}

/**
 * Runs `work` inside a new span that ends when it settles. A throw marks the span as an error and is
 * rethrown; callers add the outcome attribute themselves when it is not an exception.
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = trace.getTracer(TRACER_NAME).startSpan(
    name,
    {
      kind: options.kind,
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(options.links ? { links: options.links } : {}),
    },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => work(span));
  } catch (error) {
    markFailed(span, error);
    throw error;
  } finally {
    span.end();
  }
}

export function markFailed(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

/**
 * Runs `work` with tracing suppressed: instrumented clients inside make no span and send no trace context
 * to the peer (partners' webhook receivers get the documented headers only).
 */
export function untraced<T>(work: () => Promise<T>): Promise<T> {
  return context.with(suppressTracing(context.active()), work);
}
