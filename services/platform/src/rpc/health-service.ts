import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import {
  Health,
  HealthCheckResponseSchema,
  HealthListResponseSchema,
  HealthCheckResponse_ServingStatus as ServingStatus,
} from "@payouts/proto/grpc/health/v1/health_pb";

/**
 * grpc.health.v1 for Kubernetes probes and grpcurl. "" is the whole server; each registered service
 * name reports too. `setServing(false)` flips everything to NOT_SERVING during shutdown so load
 * balancers drain the pod before it stops.
 */
export class HealthState {
  private serving = true;
  constructor(private readonly services: readonly string[]) {}

  setServing(serving: boolean): void {
    this.serving = serving;
  }

  statusOf(service: string): ServingStatus | undefined {
    if (service !== "" && !this.services.includes(service)) return undefined;
    return this.serving ? ServingStatus.SERVING : ServingStatus.NOT_SERVING;
  }

  register(router: ConnectRouter): void {
    router.service(Health, {
      check: (req) => {
        const status = this.statusOf(req.service);
        if (status === undefined) throw new ConnectError(`unknown service ${req.service}`, Code.NotFound);
        return create(HealthCheckResponseSchema, { status });
      },
      list: () =>
        create(HealthListResponseSchema, {
          statuses: Object.fromEntries(
            ["", ...this.services].map((s) => [
              s,
              create(HealthCheckResponseSchema, { status: this.statusOf(s)! }),
            ]),
          ),
        }),
      watch: async function* (this: void, req) {
        // Kubernetes polls Check; Watch answers the current status once, which clients accept.
        const status = healthState.statusOf(req.service) ?? ServingStatus.SERVICE_UNKNOWN;
        yield create(HealthCheckResponseSchema, { status });
      },
    });
    const healthState = this;
  }
}
