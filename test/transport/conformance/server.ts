/**
 * The server under test of the Connect conformance suite (`connectconformance --mode server`): the
 * platform's own RPC listener and handler (`listenRpc`, `createRpcHandler`, as `startGrpcServer` builds
 * them, without its tracing, metrics and caller-check interceptors), serving ConformanceService. Reads
 * one ServerCompatRequest from stdin, starts listening on an ephemeral port and writes the
 * ServerCompatResponse to stdout; the runner ends the process when its tests are done.
 */
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { createRpcHandler, MAX_REQUEST_BYTES } from "@payouts/platform/internal/rpc/connect-unary-handler";
import { listenRpc } from "@payouts/platform/internal/rpc/rpc-listener";
import { readSizeDelimited, writeSizeDelimited } from "./compat-io.js";
import { conformanceRegistry, conformanceRoutes } from "./conformance-service.js";
import {
  ServerCompatRequestSchema,
  ServerCompatResponseSchema,
} from "./gen/connectrpc/conformance/v1/server_compat_pb.js";

async function main(): Promise<void> {
  const first = await readSizeDelimited(process.stdin).next();
  if (first.done) throw new Error("no ServerCompatRequest on stdin");
  const request = fromBinary(ServerCompatRequestSchema, first.value);
  const handler = createRpcHandler({
    routes: conformanceRoutes,
    // The payload echoes requests as google.protobuf.Any: JSON answers must know their types.
    jsonOptions: { registry: conformanceRegistry },
    readMaxBytes: request.messageReceiveLimit > 0 ? request.messageReceiveLimit : MAX_REQUEST_BYTES,
  });
  if (request.useTls) throw new Error("TLS is not claimed (see server-config.yaml)");
  const listener = await listenRpc(handler, 0, "127.0.0.1");
  const response = create(ServerCompatResponseSchema, { host: "127.0.0.1", port: listener.port });
  writeSizeDelimited(process.stdout, toBinary(ServerCompatResponseSchema, response));
  process.on("SIGTERM", () => void listener.close().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `conformance server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
