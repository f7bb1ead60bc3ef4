/**
 * The Prometheus listener of a distributed process: GET /metrics on METRICS_PORT (9464 by default), plain
 * HTTP/1.1, nothing else. The embedded mode serves the same handler on the gateway's admin listener.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_HOST } from "../config/listen-host.js";
import type { Logger } from "../logging/logger.js";
import type { Telemetry } from "./start-telemetry.js";

export interface MetricsServerHandle {
  /** The address the listener is bound to ("" when it could not be bound). */
  readonly host: string;
  /** 0 when the port could not be bound. */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * A busy port is logged, not fatal: a process that cannot be scraped still serves its traffic, and the
 * missing target shows up in Prometheus (`up == 0`).
 */
export async function startMetricsServer(options: {
  readonly telemetry: Telemetry;
  /** Defaults to the telemetry's METRICS_PORT. */
  readonly port?: number;
  /** Defaults to loopback; distributed processes pass HOST. */
  readonly host?: string;
  readonly logger: Logger;
}): Promise<MetricsServerHandle> {
  const server = createServer((request, response) => {
    if (request.method === "GET" && request.url?.split("?")[0] === "/metrics") {
      options.telemetry.serveMetrics(request, response);
      return;
    }
    response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
  });
  const wanted = options.port ?? options.telemetry.metricsPort;
  const bound = await new Promise<boolean>((resolve) => {
    server.once("error", (error) => {
      options.logger.error({ err: error, port: wanted }, "metrics listener not started");
      resolve(false);
    });
    server.listen(wanted, options.host ?? DEFAULT_HOST, () => resolve(true));
  });
  if (!bound) return { host: "", port: 0, close: async () => {} };
  const { address: host, port } = server.address() as AddressInfo;
  options.logger.info({ host, port }, "metrics listening on /metrics");
  return { host, port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
