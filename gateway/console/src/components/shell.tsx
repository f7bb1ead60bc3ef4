import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { useSession } from "../auth/session-context";

const NAV = [
  { to: "/", label: "Overview", end: true },
  { to: "/transactions", label: "Transactions", end: false },
  { to: "/batches", label: "Batches", end: false },
  { to: "/partners", label: "Partners", end: false },
  { to: "/webhooks", label: "Webhooks", end: false },
  { to: "/reconciliation", label: "Reconciliation", end: false },
  { to: "/approvals", label: "Approvals", end: false },
  { to: "/reference-data", label: "Reference data", end: false },
  { to: "/audit", label: "Audit", end: false },
];

/** The frame of every signed-in view: a skip link, the navigation, and the view as the page's main. */
export function Shell({ children }: { children: ReactNode }) {
  const { signOut, identity } = useSession();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">Payouts console</span>
        <nav aria-label="Main">
          <ul>
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.end}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        {identity && (
          <span className="signed-in-as">
            {identity.name} ({identity.role})
          </span>
        )}
        <button type="button" className="link-button" onClick={() => signOut()}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}
