/**
 * Rate, errors and latency of every RPC a service answers: one histogram, labelled by service, method,
 * gRPC code and outcome (ok, a documented refusal reason, or a gRPC code name: a bounded set).
 */
import type { Interceptor } from "@connectrpc/connect";
import { LATENCY_BUCKETS_S, payoutsMeter } from "./payouts-meter.js";
import { RPC_OK, type RpcOutcome, rpcOutcomeOf } from "./rpc-outcome.js";

export function createRpcMetricsInterceptor(): Interceptor {
  const duration = payoutsMeter().createHistogram("payouts.rpc.server.duration.seconds", {
    description: "Duration of RPCs handled by this process",
    unit: "s",
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS_S },
  });
  return (next) => async (req) => {
    const started = performance.now();
    const record = (result: RpcOutcome) =>
      duration.record((performance.now() - started) / 1000, {
        "rpc.service": req.service.typeName,
        "rpc.method": req.method.name,
        "rpc.grpc.status_code": result.code,
        outcome: result.outcome,
      });
    try {
      const res = await next(req);
      // Streams are measured to their first answer: long-lived watches would only blur the histogram.
      record(RPC_OK);
      return res;
    } catch (error) {
      record(rpcOutcomeOf(error));
      throw error;
    }
  };
}
