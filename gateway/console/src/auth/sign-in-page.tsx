import { type FormEvent, useId, useState } from "react";
import { Navigate, useLocation, useNavigate } from "react-router";
import { createAdminApi } from "../api/admin-api";
import { ApiError } from "../api/api-error";
import { useSession } from "./session-context";

/** The admin token is entered once per browser session and checked against the API before it is kept. */
export function SignInPage() {
  const { api, signIn, endedBecause } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? "/";
  const [token, setToken] = useState("");
  const [error, setError] = useState<string>();
  const [checking, setChecking] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();

  if (api && !checking) return <Navigate to={from} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const candidate = token.trim();
    if (!candidate) {
      setError("Enter the admin token.");
      return;
    }
    setChecking(true);
    setError(undefined);
    try {
      await createAdminApi(candidate).listFxRates();
      signIn(candidate);
      await navigate(from, { replace: true });
    } catch (caught) {
      setError(signInError(caught));
    } finally {
      setChecking(false);
    }
  }

  const message = error ?? endedBecause;
  return (
    <main className="signin">
      <form className="card signin-card" onSubmit={submit} noValidate aria-describedby={hintId}>
        <h1>Payouts console</h1>
        <p id={hintId} className="muted">
          Sign in with the admin token (<code>ADMIN_TOKEN</code>; <code>npm start</code> prints it). It is
          kept for this browser tab only and sent as a Bearer token with every request.
        </p>
        <label htmlFor={inputId}>Admin token</label>
        <input
          id={inputId}
          name="admin-token"
          type="password"
          autoComplete="current-password"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={message ? errorId : undefined}
          required
          // biome-ignore lint/a11y/noAutofocus: the page's only field, where every operator starts typing.
          autoFocus
        />
        {message && (
          <p id={errorId} className="error" role="alert">
            {message}
          </p>
        )}
        <button type="submit" className="primary" disabled={checking}>
          {checking ? "Checking…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}

function signInError(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.unauthorized) return "That admin token was refused (401). Check the token and try again.";
    if (error.status === 0) return `The admin API could not be reached. ${error.message}`;
    return `The admin API answered ${error.status} ${error.code}: ${error.message}`;
  }
  return `Sign-in failed: ${String(error)}`;
}
