/**
 * What the gateway's listeners add to the HTTP server span the http instrumentation opened (route, request
 * id, partner, tx_id, outcome) and the per-route request histogram. Framework-free: the gateway calls it
 * from its hooks.
 */
import { context, trace } from "@opentelemetry/api";
import { getRPCMetadata, RPCType } from "@opentelemetry/core";
import { LATENCY_BUCKETS_S, payoutsMeter } from "./payouts-meter.js";

export interface HttpRequestFacts {
  readonly method: string;
  /** The route pattern (`/transactions/:tx_id`), never the raw URL: ids would explode the series. */
  readonly route: string | undefined;
  readonly status: number;
  readonly seconds: number;
}

export interface HttpServerTelemetry {
  started(method: string, route: string | undefined, requestId: string): void;
  /** After authentication / body parsing: ids only, never credentials or personal data. */
  identified(ids: { partnerId?: string | undefined; txId?: unknown }): void;
  finished(facts: HttpRequestFacts): void;
}

export const UNMATCHED_ROUTE = "unmatched";

export function createHttpServerTelemetry(listener: "partner" | "admin"): HttpServerTelemetry {
  const duration = payoutsMeter().createHistogram("payouts.http.server.duration.seconds", {
    description: "Duration of HTTP requests answered by the gateway, per listener and route",
    unit: "s",
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS_S },
  });
  return {
    started(method, route, requestId) {
      const name = route ?? UNMATCHED_ROUTE;
      const rpc = getRPCMetadata(context.active());
      // The http instrumentation names its span and its own metrics after this route.
      if (rpc?.type === RPCType.HTTP) rpc.route = name;
      trace
        .getActiveSpan()
        ?.updateName(`${method} ${name}`)
        .setAttributes({ "http.route": name, request_id: requestId });
    },
    identified({ partnerId, txId }) {
      const span = trace.getActiveSpan();
      if (partnerId) span?.setAttribute("partner_id", partnerId);
      if (typeof txId === "string" && /^[\w-]{1,100}$/.test(txId)) span?.setAttribute("tx_id", txId);
    },
    finished(facts) {
      const outcome = facts.status < 400 ? "ok" : facts.status < 500 ? "refused" : "error";
      trace.getActiveSpan()?.setAttribute("outcome", outcome);
      duration.record(facts.seconds, {
        listener,
        "http.route": facts.route ?? UNMATCHED_ROUTE,
        "http.request.method": facts.method,
        "http.response.status_code": facts.status,
      });
    },
  };
}
