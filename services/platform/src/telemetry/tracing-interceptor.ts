/**
 * Client and server spans for every Connect/gRPC call, with W3C trace context carried in the request
 * metadata (`traceparent`, `tracestate`, `baggage` headers): there is no official OpenTelemetry
 * instrumentation for Connect. Server spans are active while the handler runs, so database spans and
 * log lines inside it belong to the call. Streaming responses end their span when the stream ends.
 */

import type { Interceptor, StreamResponse, UnaryResponse } from "@connectrpc/connect";
import {
  type Context,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from "@opentelemetry/api";
import { isServerFault, RPC_OK, type RpcOutcome, rpcIdsOf, rpcOutcomeOf } from "./rpc-outcome.js";
import { TRACER_NAME } from "./trace-context.js";

const headerSetter: TextMapSetter<Headers> = { set: (h, key, value) => h.set(key, value) };
const headerGetter: TextMapGetter<Headers> = {
  keys: (h) => [...h.keys()],
  get: (h, key) => h.get(key) ?? undefined,
};

export type RpcSide = "client" | "server";

export function createTracingInterceptor(side: RpcSide): Interceptor {
  return (next) => async (req) => {
    // A server call's only parent is the trace context its caller sent: the context the listener happened
    // to run in (e.g. the HTTP instrumentation's suppressed context for an HTTP/1.1 RPC) is not one.
    const base =
      side === "server" ? propagation.extract(ROOT_CONTEXT, req.header, headerGetter) : context.active();
    const span = trace.getTracer(TRACER_NAME).startSpan(
      `${req.service.typeName}/${req.method.name}`,
      {
        kind: side === "server" ? SpanKind.SERVER : SpanKind.CLIENT,
        attributes: {
          "rpc.system": "grpc",
          "rpc.service": req.service.typeName,
          "rpc.method": req.method.name,
          ...(req.stream ? {} : rpcIdsOf(req.message)),
        },
      },
      base,
    );
    const active: Context = trace.setSpan(base, span);
    if (side === "client") propagation.inject(active, req.header, headerSetter);
    let res: UnaryResponse | StreamResponse;
    try {
      res = await context.with(active, () => next(req));
    } catch (error) {
      finish(span, side, rpcOutcomeOf(error), error);
      throw error;
    }
    if (!res.stream) {
      span.setAttributes(rpcIdsOf(res.message));
      finish(span, side, RPC_OK);
      return res;
    }
    return {
      ...res,
      message: endWithStream(res.message, (error) =>
        finish(span, side, error === undefined ? RPC_OK : rpcOutcomeOf(error), error),
      ),
    };
  };
}

function finish(span: Span, side: RpcSide, result: RpcOutcome, error?: unknown): void {
  span.setAttributes({ "rpc.grpc.status_code": result.code, outcome: result.outcome });
  if (error !== undefined && (side === "client" || isServerFault(result.code))) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: result.outcome });
    if (isServerFault(result.code)) span.recordException(error instanceof Error ? error : String(error));
  }
  span.end();
}

/** Passes a stream through and reports once how it ended (completed, failed or abandoned). */
async function* endWithStream<T>(
  source: AsyncIterable<T>,
  done: (error?: unknown) => void,
): AsyncIterable<T> {
  let reported = false;
  const report = (error?: unknown) => {
    if (reported) return;
    reported = true;
    done(error);
  };
  try {
    yield* source;
    report();
  } catch (error) {
    report(error);
    throw error;
  } finally {
    report();
  }
}
