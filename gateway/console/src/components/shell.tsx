import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { useSession } from "../auth/session-context";

/** An entry of the main navigation; "/" (the overview) is current only on its own address. */
export interface NavItem {
  readonly to: string;
  readonly label: string;
}

/** The frame of every signed-in view: a skip link, the navigation, and the view as the page's main. */
export function Shell({ nav, children }: { nav: readonly NavItem[]; children: ReactNode }) {
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
            {nav.map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} end={item.to === "/"}>
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
