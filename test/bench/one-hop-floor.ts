import type { HttpScenarioResult } from "./bench-results.js";

/** The client libraries (and so transports) the one-hop floor is measured with. */
export const FLOOR_CLIENTS = [
  "connect-grpc-h2c",
  "grpc-js",
  "connect-http1-binary",
  "platform-http1",
] as const;
export type FloorClient = (typeof FLOOR_CLIENTS)[number];

export interface FloorVariant {
  readonly client: FloorClient;
  /** What the bare RPC server listens with (one-hop-floor-server.ts `rpc <protocol>`). */
  readonly server: "h2c" | "http1" | "platform-http1";
  /** The scenario name in the reports. */
  readonly name: string;
}

/** One variant per transport: the platform's today first. */
export const FLOOR_VARIANTS: readonly FloorVariant[] = [
  { client: "connect-grpc-h2c", server: "h2c", name: "floor: connect-node gRPC over h2c" },
  { client: "grpc-js", server: "h2c", name: "floor: @grpc/grpc-js gRPC over h2c" },
  { client: "connect-http1-binary", server: "http1", name: "floor: Connect binary over HTTP/1.1" },
  // The same protocol through the platform's own unary client and server (http1-unary-client.ts,
  // connect-unary-handler.ts): what the services use today, without their interceptors.
  {
    client: "platform-http1",
    server: "platform-http1",
    name: "floor: Connect binary over HTTP/1.1, platform client and server",
  },
];

/** The floor with the most requests/s, if any floor ran. */
export function bestFloor(http: readonly HttpScenarioResult[]): HttpScenarioResult | undefined {
  return http
    .filter((s) => s.mode === "floor")
    .reduce<HttpScenarioResult | undefined>(
      (best, s) => (!best || s.load.requestsPerSecond > best.load.requestsPerSecond ? s : best),
      undefined,
    );
}

/**
 * Every floor and every distributed partner endpoint with its requests/s as a fraction of the best
 * floor (the floors too, so the transports compare with each other). Embedded runs and the other
 * baselines are left as they are: the floor is a distributed stack's.
 */
export function withBestFloor(http: readonly HttpScenarioResult[]): HttpScenarioResult[] {
  const best = bestFloor(http);
  if (!best || best.load.requestsPerSecond <= 0) return [...http];
  return http.map((s) =>
    s.mode === "floor" || s.mode === "distributed"
      ? { ...s, floor: { name: best.name, ratio: s.load.requestsPerSecond / best.load.requestsPerSecond } }
      : s,
  );
}
