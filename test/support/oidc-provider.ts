import { createServer, type Server } from "node:http";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";
import { freePort } from "./free-port.js";

/** The gateway as a client of the test provider. */
export const OIDC_CLIENT = { id: "payouts-admin", secret: "oidc-client-secret-0123456789abcdef" };

export interface TestOidcProvider {
  readonly issuer: string;
  /** The key the provider signs ID tokens with (`kid` "k1", RS256), for tests that re-sign a changed token. */
  readonly signingKey: Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (`oidc-provider`) on a free local port, with one client: the gateway's
 * admin listener at `adminUrl`. Accounts are the keys of `groups`, each with a `groups` claim.
 *
 * `signInAs` set: every authorization signs that user in and consents at once (for tests that walk the
 * redirects without a browser). Unset: the provider's own development login and consent pages, where a
 * browser types any user name (and any password) and presses "Continue".
 */
export async function startOidcProvider(options: {
  adminUrl: string;
  groups: Readonly<Record<string, readonly string[]>>;
  signInAs?: () => string;
}): Promise<TestOidcProvider> {
  const { adminUrl, groups, signInAs } = options;
  const issuer = `http://127.0.0.1:${await freePort()}`;
  const keys = await generateKeyPair("RS256", { extractable: true });
  const jwk = { ...(await exportJWK(keys.privateKey)), kid: "k1", alg: "RS256", use: "sig" };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: OIDC_CLIENT.id,
        client_secret: OIDC_CLIENT.secret,
        redirect_uris: [`${adminUrl}/admin/oidc/callback`],
        post_logout_redirect_uris: [`${adminUrl}/console/`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["oidc-test-cookie-key"] },
    claims: { openid: ["sub"], groups: ["groups"], profile: ["preferred_username"] },
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: signInAs === undefined }, rpInitiatedLogout: { enabled: true } },
    ...(signInAs === undefined
      ? {}
      : {
          interactions: {
            url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
          },
        }),
    findAccount: async (_ctx: unknown, sub: string) => ({
      accountId: sub,
      claims: async () => ({ sub, preferred_username: sub, groups: [...(groups[sub] ?? [])] }),
    }),
  });
  const handle = provider.callback();
  const server: Server = createServer((req, res) => {
    if (signInAs === undefined || !req.url?.startsWith("/interaction/")) return void handle(req, res);
    // The user signs in and consents at once: the provider records the grant and resumes the flow.
    void (async () => {
      const accountId = signInAs();
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } });
    })();
  });
  await new Promise<void>((resolve) => server.listen(Number(new URL(issuer).port), "127.0.0.1", resolve));
  return {
    issuer,
    signingKey: keys.privateKey,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
