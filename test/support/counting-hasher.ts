import { type SecretHasher, scryptHasher } from "@payouts/gateway/internal/auth/secret-hash";

/** The real scrypt hasher, counting its verifications and able to hold them until released. */
export function countingHasher() {
  let verifications = 0;
  const order: string[] = [];
  let gate: Promise<void> | undefined;
  let release: (() => void) | undefined;
  let entered: (() => void) | undefined;
  const hasher: SecretHasher = {
    hash: scryptHasher.hash,
    async verify(secret, stored) {
      verifications++;
      order.push(secret);
      entered?.();
      if (gate) await gate;
      return scryptHasher.verify(secret, stored);
    },
  };
  return {
    hasher,
    /** The secrets checked so far, in the order their checks started. */
    order,
    /** Verifications since the last call. */
    take() {
      const n = verifications;
      verifications = 0;
      return n;
    },
    /** Holds every verification; resolves `started` when the first one is held. */
    hold() {
      gate = new Promise((r) => {
        release = r;
      });
      const started = new Promise<void>((r) => {
        entered = r;
      });
      return {
        started,
        release() {
          gate = undefined;
          entered = undefined;
          release?.();
        },
      };
    },
  };
}
