import { HealthCheckResponse_ServingStatus } from "@payouts/proto/grpc/health/v1/health_pb";
import { describe, expect, it } from "vitest";

describe("workspace resolution", () => {
  it("resolves generated code through the source condition", () => {
    expect(HealthCheckResponse_ServingStatus.SERVING).toBe(1);
  });
});
