/**
 * The mutual-TLS option of the gRPC listeners and service transports (Helm `tls.enabled`): a client
 * needs a certificate from the shared CA, the service token is still checked, and a plaintext port
 * answers grpc.health.v1 only (kubelet gRPC probes cannot speak TLS). Certificates are made with openssl.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Code, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import { createLogger } from "@payouts/platform/logging/logger";
import { type GrpcServerHandle, startGrpcServer } from "@payouts/platform/rpc/grpc-server";
import { type GrpcTls, loadGrpcTls } from "@payouts/platform/rpc/grpc-tls";
import {
  generateServiceCredentials,
  signerOf,
  transportSignedBy,
  verifierOf,
} from "@payouts/platform/rpc/service-credentials";
import { createServiceTransport } from "@payouts/platform/rpc/service-transport";
import { Health, HealthCheckResponse_ServingStatus } from "@payouts/proto/grpc/health/v1/health_pb";
import { LedgerService } from "@payouts/proto/payouts/ledger/v1/ledger_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GrpcJsError, grpcJsUnary } from "../e2e/support/grpc-js-unary.js";
import { type LedgerHarness, startLedgerHarness } from "../ledger/support/ledger-harness.js";
import { freePort } from "../support/free-port.js";
import { codeOf, listenAuthenticated } from "../support/rpc-callers.js";

const dir = mkdtempSync(join(tmpdir(), "payouts-mtls-"));
const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });

/** A CA, and a certificate it signs for 127.0.0.1 (usable as server and client certificate). */
function makePki(name: string): GrpcTls {
  openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "1",
    "-subj",
    `/CN=${name}-ca`,
    "-keyout",
    `${name}-ca.key`,
    "-out",
    `${name}-ca.crt`,
  );
  openssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-subj",
    `/CN=${name}`,
    "-keyout",
    `${name}.key`,
    "-out",
    `${name}.csr`,
  );
  const ext = join(dir, `${name}.ext`);
  execFileSync("sh", [
    "-c",
    `printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\nextendedKeyUsage=serverAuth,clientAuth\\n' > ${ext}`,
  ]);
  openssl(
    "x509",
    "-req",
    "-in",
    `${name}.csr`,
    "-CA",
    `${name}-ca.crt`,
    "-CAkey",
    `${name}-ca.key`,
    "-CAcreateserial",
    "-days",
    "1",
    "-extfile",
    ext,
    "-out",
    `${name}.crt`,
  );
  return loadGrpcTls({
    GRPC_TLS_CA_FILE: join(dir, `${name}-ca.crt`),
    GRPC_TLS_CERT_FILE: join(dir, `${name}.crt`),
    GRPC_TLS_KEY_FILE: join(dir, `${name}.key`),
  })!;
}

const credentials = generateServiceCredentials();
let pki: GrpcTls;
let harness: LedgerHarness;
let server: GrpcServerHandle;

beforeAll(async () => {
  pki = makePki("payouts");
  harness = await startLedgerHarness();
  server = await listenAuthenticated({ name: "ledger", module: harness.module, credentials, tls: pki });
});

afterAll(async () => {
  await server?.close();
  await harness?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ledger = (tls: GrpcTls | undefined) =>
  createClient(
    LedgerService,
    transportSignedBy(
      createServiceTransport(`${tls ? "https" : "http"}://127.0.0.1:${server.port}`, [], tls),
      signerOf(credentials, "gateway"),
      "ledger",
    ),
  );

describe("gRPC with mutual TLS", () => {
  it("serves a client presenting a certificate of the shared CA, with a valid service token", async () => {
    const answer = await ledger(pki).getBalance({ partnerId: "ptr_tls" });
    expect(answer.balanceUsd).toMatch(/^0(\.0*)?$/);
  });

  it("still checks the service token over TLS", async () => {
    const anonymous = createClient(
      LedgerService,
      createServiceTransport(`https://127.0.0.1:${server.port}`, [], pki),
    );
    const forged = { headers: { authorization: `Bearer gateway.${"A".repeat(43)}` } };
    expect(await codeOf(anonymous.getBalance({ partnerId: "ptr_tls" }, forged))).toBe(Code.Unauthenticated);
  });

  it("refuses a client without a certificate, with a foreign one, or in plaintext", async () => {
    const foreign = makePki("intruder");
    const withoutCertificate = createClient(
      LedgerService,
      transportSignedBy(
        createGrpcTransport({ baseUrl: `https://127.0.0.1:${server.port}`, nodeOptions: { ca: pki.ca } }),
        signerOf(credentials, "gateway"),
        "ledger",
      ),
    );
    const codes = await Promise.all([
      codeOf(ledger({ ...foreign, ca: pki.ca }).getBalance({ partnerId: "ptr_tls" })),
      codeOf(withoutCertificate.getBalance({ partnerId: "ptr_tls" })),
      codeOf(ledger(undefined).getBalance({ partnerId: "ptr_tls" })),
    ]);
    // The handshake fails, so the call never reaches the service (Node reports it as canceled or internal).
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).not.toBe("OK");
  });
});

describe("the plaintext health port", () => {
  it("is opened only when asked for", () => {
    expect(server.healthPort).toBeUndefined();
  });

  it("answers grpc.health.v1 without TLS and routes nothing else", async () => {
    const probed = await startGrpcServer({
      name: "probe",
      port: 0,
      serviceNames: [LedgerService.typeName],
      routes: (router) => harness.module.routes(router),
      auth: { verifier: verifierOf(credentials, "ledger") },
      tls: pki,
      healthPort: await freePort(),
      logger: createLogger({ service: "probe", level: "silent" }),
    });
    try {
      const address = `127.0.0.1:${probed.healthPort}`;
      const health = await grpcJsUnary(address, Health.method.check, { service: "" });
      expect(health.status).toBe(HealthCheckResponse_ServingStatus.SERVING);
      const other = await grpcJsUnary(
        address,
        LedgerService.method.getBalance,
        { partnerId: "ptr_tls" },
        5_000,
        {
          authorization: `Bearer ${await signerOf(credentials, "gateway").tokenFor("ledger")}`,
        },
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(other).toBeInstanceOf(GrpcJsError);
      expect((other as GrpcJsError).code).toBe(grpc.status.UNIMPLEMENTED);
    } finally {
      await probed.close();
    }
  });
});
