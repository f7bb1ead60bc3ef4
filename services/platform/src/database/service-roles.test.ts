import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { isRoleName, scramVerifier } from "./service-roles.js";

/** node-postgres's own SCRAM client: an implementation independent of scramVerifier to check it against. */
interface SaslSession {
  clientNonce: string;
  response: string;
  serverSignature: string;
}
const sasl = createRequire(import.meta.url)("pg/lib/crypto/sasl.js") as {
  startSession(mechanisms: string[]): SaslSession;
  continueSession(session: SaslSession, password: string, serverData: string): Promise<void>;
  finalizeSession(session: SaslSession, serverData: string): void;
};

/** Plays PostgreSQL's side of a SCRAM-SHA-256 login against a stored verifier; true when the client proved the password. */
async function loginWith(verifier: string, password: string): Promise<boolean> {
  const match = /^SCRAM-SHA-256\$(\d+):([^$]+)\$([^:]+):(.+)$/.exec(verifier);
  if (!match) throw new Error("not a SCRAM-SHA-256 verifier");
  const [, iterations, salt, storedKeyB64, serverKeyB64] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  const session = sasl.startSession(["SCRAM-SHA-256"]);
  const serverFirst = `r=${session.clientNonce}server-nonce,s=${salt},i=${iterations}`;
  await sasl.continueSession(session, password, serverFirst);
  const withoutProof = session.response.replace(/,p=[^,]+$/, "");
  const proof = Buffer.from(session.response.slice(session.response.lastIndexOf(",p=") + 3), "base64");
  const authMessage = `n=*,r=${session.clientNonce},${serverFirst},${withoutProof}`;
  const storedKey = Buffer.from(storedKeyB64, "base64");
  const clientSignature = createHmac("sha256", storedKey).update(authMessage).digest();
  const clientKey = Buffer.from(proof.map((byte, i) => byte ^ (clientSignature[i] ?? 0)));
  const proved = timingSafeEqual(createHash("sha256").update(clientKey).digest(), storedKey);
  if (proved) {
    const serverSignature = createHmac("sha256", Buffer.from(serverKeyB64, "base64"))
      .update(authMessage)
      .digest();
    sasl.finalizeSession(session, `v=${serverSignature.toString("base64")}`);
  }
  return proved;
}

describe("scramVerifier", () => {
  it("stores a verifier a SCRAM-SHA-256 client logs in against with the password, and only with it", async () => {
    const verifier = scramVerifier("Zt3c9Q-generated_password");
    expect(verifier).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/);
    expect(verifier).not.toContain("Zt3c9Q");
    expect(await loginWith(verifier, "Zt3c9Q-generated_password")).toBe(true);
    expect(await loginWith(verifier, "Zt3c9Q-generated_passworD")).toBe(false);
  });

  it("salts each verifier anew", () => {
    expect(scramVerifier("same")).not.toBe(scramVerifier("same"));
  });
});

describe("isRoleName", () => {
  it("accepts plain lower-case identifiers only (they are spliced into GRANT statements)", () => {
    expect(isRoleName("payouts_webhooks")).toBe(true);
    expect(isRoleName("t_0a1b_sandbox_rail")).toBe(true);
    for (const bad of ["Payouts", "a-b", "x; DROP ROLE postgres", "", "1abc", "a".repeat(64)]) {
      expect(isRoleName(bad), bad).toBe(false);
    }
  });
});
