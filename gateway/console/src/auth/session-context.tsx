import { type AdminRole, roleMayCall } from "@payouts/client/admin";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { type AdminApi, createAdminApi } from "../api/admin-api";
import { forgetToken, storedToken, storeToken } from "../api/session";

/** Who is signed in, as `GET /admin/session` answers. */
export interface Identity {
  readonly id: string;
  readonly name: string;
  readonly kind: "operator" | "machine";
  readonly role: AdminRole;
}

interface Session {
  /** The admin API of this session, or undefined when signed out (or still checking). */
  readonly api: AdminApi | undefined;
  readonly identity: Identity | undefined;
  /** True while the page checks whether a session cookie or a stored token is still valid. */
  readonly checking: boolean;
  /** Why the last session ended, shown on the sign-in page (e.g. the token was refused). */
  readonly endedBecause: string | undefined;
  /** Signed in: with a machine token (kept for this tab) or, without one, by the session cookie. */
  signedIn(identity: Identity, token?: string): void;
  signOut(reason?: string): void;
  /** Whether the signed-in role may call `METHOD /path` (the admin API's declared roles). */
  can(route: string): boolean;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState(storedToken);
  const [identity, setIdentity] = useState<Identity>();
  const [checking, setChecking] = useState(true);
  const [endedBecause, setEndedBecause] = useState<string>();
  // A reload: the stored token or the session cookie may still be good.
  useEffect(() => {
    const kept = storedToken();
    createAdminApi(kept)
      .whoAmI()
      .then((me) => setIdentity(me as Identity))
      .catch(() => {
        setIdentity(undefined);
        if (kept === undefined) return;
        forgetToken();
        setToken(undefined);
        setEndedBecause("The admin API refused the token (401). Sign in again with a valid admin token.");
      })
      .finally(() => setChecking(false));
  }, []);
  const signedIn = useCallback((next: Identity, nextToken?: string) => {
    if (nextToken) storeToken(nextToken);
    setEndedBecause(undefined);
    setToken(nextToken);
    setIdentity(next);
  }, []);
  const signOut = useCallback(
    (reason?: string) => {
      const cookieSession = identity?.kind === "operator" && reason === undefined;
      forgetToken();
      setEndedBecause(reason);
      setToken(undefined);
      setIdentity(undefined);
      if (!cookieSession) return;
      // Ends the session server-side; a session from the SSO provider is ended there too.
      createAdminApi()
        .signOut()
        .then((out) => {
          if (out?.logout_url) window.location.assign(out.logout_url);
        })
        .catch(() => undefined);
    },
    [identity],
  );
  const session = useMemo<Session>(
    () => ({
      api: identity ? createAdminApi(token) : undefined,
      identity,
      checking,
      endedBecause,
      signedIn,
      signOut,
      can: (route) => identity !== undefined && roleMayCall(identity.role, route),
    }),
    [token, identity, checking, endedBecause, signedIn, signOut],
  );
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error("useSession outside SessionProvider");
  return session;
}

/** The admin API of the signed-in operator; only used below the sign-in guard. */
export function useApi(): AdminApi {
  const { api } = useSession();
  if (!api) throw new Error("useApi while signed out");
  return api;
}

/** Whether the signed-in role may call `METHOD /path`: views show no control for an action it cannot take. */
export function useCan(): (route: string) => boolean {
  return useSession().can;
}
