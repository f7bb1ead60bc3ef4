import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { type AdminApi, createAdminApi } from "../api/admin-api";
import { forgetToken, storedToken, storeToken } from "../api/session";

interface Session {
  /** The admin API with this session's token, or undefined when signed out. */
  readonly api: AdminApi | undefined;
  /** Why the last session ended, shown on the sign-in page (e.g. the token was refused). */
  readonly endedBecause: string | undefined;
  signIn(token: string): void;
  signOut(reason?: string): void;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [token, setToken] = useState(storedToken);
  const [endedBecause, setEndedBecause] = useState<string>();
  const signIn = useCallback((next: string) => {
    storeToken(next);
    setEndedBecause(undefined);
    setToken(next);
  }, []);
  const signOut = useCallback((reason?: string) => {
    forgetToken();
    setEndedBecause(reason);
    setToken(undefined);
  }, []);
  const session = useMemo<Session>(
    () => ({ api: token ? createAdminApi(token) : undefined, endedBecause, signIn, signOut }),
    [token, endedBecause, signIn, signOut],
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
