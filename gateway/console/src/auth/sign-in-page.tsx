import { useQuery } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { createAdminApi } from "../api/admin-api";
import { ApiError, isUnauthorized } from "../api/api-error";
import { type Identity, useSession } from "./session-context";

/**
 * Operators sign in with user name, password and the code of their authenticator app (a server-side
 * session in an HttpOnly cookie), or with SSO when the gateway has an OpenID Connect provider. Scripts'
 * machine tokens still work here, kept for this browser tab only.
 */
export function SignInPage() {
  const { api, checking, signedIn, endedBecause } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? "/";
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [totp, setTotp] = useState("");
  const [token, setToken] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const options = useQuery({
    queryKey: ["sign-in-options"],
    queryFn: () => createAdminApi().signInOptions(),
  });

  if (checking) return <p className="muted">Checking your session…</p>;
  if (api && !busy) return <Navigate to={from} replace />;

  async function attempt(check: () => Promise<{ identity: Identity; token?: string }>) {
    setBusy(true);
    setError(undefined);
    try {
      const { identity, token: kept } = await check();
      signedIn(identity, kept);
      await navigate(from, { replace: true });
    } catch (caught) {
      setError(signInError(caught));
    } finally {
      setBusy(false);
    }
  }

  function submitOperator(event: FormEvent) {
    event.preventDefault();
    if (!username.trim() || !password || !totp.trim()) {
      setError("Enter your user name, password and authenticator code.");
      return;
    }
    void attempt(async () => ({
      identity: (await createAdminApi().signIn(username.trim(), password, totp.trim())) as Identity,
    }));
  }

  function submitToken(event: FormEvent) {
    event.preventDefault();
    const candidate = token.trim();
    if (!candidate) {
      setError("Enter the machine token.");
      return;
    }
    void attempt(async () => ({
      identity: (await createAdminApi(candidate).whoAmI()) as Identity,
      token: candidate,
    }));
  }

  const message = error ?? endedBecause;
  return (
    <main className="signin">
      <div className="card signin-card">
        <h1>Payouts console</h1>
        <form onSubmit={submitOperator} noValidate>
          <Field
            label="User name"
            value={username}
            onChange={setUsername}
            autoComplete="username"
            autoFocus
          />
          <Field
            label="Password"
            value={password}
            onChange={setPassword}
            type="password"
            autoComplete="current-password"
          />
          <Field
            label="Authenticator code"
            value={totp}
            onChange={setTotp}
            autoComplete="one-time-code"
            inputMode="numeric"
          />
          <button type="submit" className="primary" disabled={busy}>
            {busy ? "Checking…" : "Sign in"}
          </button>
        </form>
        {options.data?.oidc && (
          <p>
            <a className="button" href="/admin/oidc/login">
              Sign in with SSO
            </a>
          </p>
        )}
        {message && (
          <p id={errorId} className="error" role="alert">
            {message}
          </p>
        )}
        <details>
          <summary>Use a machine token</summary>
          <form onSubmit={submitToken} noValidate>
            <p className="muted">
              A machine credential (<code>payouts machine-credentials add</code>, or <code>ADMIN_TOKEN</code>
              ), kept for this browser tab only and sent as a Bearer token with every request.
            </p>
            <Field
              label="Machine token"
              value={token}
              onChange={setToken}
              type="password"
              autoComplete="off"
            />
            <button type="submit" disabled={busy}>
              Sign in with token
            </button>
          </form>
        </details>
      </div>
    </main>
  );
}

function Field(props: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  autoComplete: string;
  inputMode?: "numeric";
  autoFocus?: boolean;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type={props.type ?? "text"}
        autoComplete={props.autoComplete}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        {...(props.inputMode ? { inputMode: props.inputMode } : {})}
        // biome-ignore lint/a11y/noAutofocus: the sign-in page's first field, where every operator starts typing.
        autoFocus={props.autoFocus}
      />
    </>
  );
}

function signInError(error: unknown): string {
  if (error instanceof ApiError) {
    if (isUnauthorized(error)) return "Those credentials were refused (401). Check them and try again.";
    if (error.status === 429) return "Too many failed sign-ins: wait a few minutes and try again.";
    if (error.status === 0) return `The admin API could not be reached. ${error.message}`;
    return `The admin API answered ${error.status} ${error.code}: ${error.message}`;
  }
  return `Sign-in failed: ${String(error)}`;
}
