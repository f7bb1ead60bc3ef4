/**
 * SHA-256 as pure computation for domain code (a digest is deterministic and touches nothing outside the
 * process): a running hash fed with text, and the hex digest of a string.
 */
import { createHash, type Hash } from "node:crypto";

export class Sha256 {
  private readonly hash: Hash = createHash("sha256");

  update(text: string): this {
    this.hash.update(text, "utf8");
    return this;
  }

  /** The hex digest of everything fed so far (the hash can still be fed afterwards). */
  hex(): string {
    return this.hash.copy().digest("hex");
  }
}

export function sha256Hex(text: string): string {
  return new Sha256().update(text).hex();
}
