import { generateEventSigningKeys, verifyKeyOf } from "@payouts/platform/events/event-signature";

/**
 * The event signing keys of the one-process mode, where the ledger and the dispatcher share one
 * environment: EVENT_SIGNING_KEY when given (else a key that lives as long as this process), and
 * EVENT_VERIFY_KEYS with its public key added, so both modes sign and verify every event alike.
 */
export function embeddedEventKeys(env: Readonly<Record<string, string | undefined>>): {
  EVENT_SIGNING_KEY: string;
  EVENT_VERIFY_KEYS: string;
} {
  const signingKey = env.EVENT_SIGNING_KEY || generateEventSigningKeys().signingKey;
  const given = (env.EVENT_VERIFY_KEYS ?? "").split(",").filter((key) => key.trim() !== "");
  const own = verifyKeyOf(signingKey);
  return {
    EVENT_SIGNING_KEY: signingKey,
    EVENT_VERIFY_KEYS: [...new Set([own, ...given])].join(","),
  };
}
