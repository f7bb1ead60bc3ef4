import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useLocation } from "react-router";
import { isUnauthorized } from "./api/api-error";
import { SessionProvider, useSession } from "./auth/session-context";
import { SignInPage } from "./auth/sign-in-page";
import { type NavItem, Shell } from "./components/shell";
import { queryClient, setFailureHandler } from "./query-client";
import { ApprovalsPage } from "./views/approvals-page";
import { AuditPage } from "./views/audit-page";
import { BatchPage } from "./views/batch-page";
import { BatchesPage } from "./views/batches-page";
import { NotFoundPage } from "./views/not-found-page";
import { OverviewPage } from "./views/overview-page";
import { PartnerPage } from "./views/partner-page";
import { PartnersPage } from "./views/partners-page";
import { ReconciliationPage } from "./views/reconciliation-page";
import { ReferenceDataPage } from "./views/reference-data-page";
import { TransactionPage } from "./views/transaction-page";
import { TransactionsPage } from "./views/transactions-page";
import { WebhooksPage } from "./views/webhooks-page";

/** Every view but the sign-in page needs a session; without one the operator is sent to sign in. */
function RequireSession() {
  const { api, checking, signOut } = useSession();
  const location = useLocation();
  useEffect(() => {
    setFailureHandler((error) => {
      if (isUnauthorized(error)) {
        queryClient.clear();
        signOut("The admin API refused the token (401). Sign in again with a valid admin token.");
      }
    });
  }, [signOut]);
  if (checking) return <p className="muted">Checking your session…</p>;
  if (!api) return <Navigate to="/signin" replace state={{ from: location.pathname + location.search }} />;
  return (
    <Shell nav={MAIN_VIEWS}>
      <Outlet />
    </Shell>
  );
}

/** The views of the main navigation, in its order: where each is and what the navigation calls it. */
const MAIN_VIEWS: readonly (NavItem & { element: ReactNode })[] = [
  { to: "/", label: "Overview", element: <OverviewPage /> },
  { to: "/transactions", label: "Transactions", element: <TransactionsPage /> },
  { to: "/batches", label: "Batches", element: <BatchesPage /> },
  { to: "/partners", label: "Partners", element: <PartnersPage /> },
  { to: "/webhooks", label: "Webhooks", element: <WebhooksPage /> },
  { to: "/reconciliation", label: "Reconciliation", element: <ReconciliationPage /> },
  { to: "/approvals", label: "Approvals", element: <ApprovalsPage /> },
  { to: "/reference-data", label: "Reference data", element: <ReferenceDataPage /> },
  { to: "/audit", label: "Audit", element: <AuditPage /> },
];

/** The views opened from a list, and the answer to any other address. */
const OTHER_VIEWS = [
  { path: "transactions/:txId", element: <TransactionPage /> },
  { path: "batches/:batchId", element: <BatchPage /> },
  { path: "partners/:partnerId", element: <PartnerPage /> },
  { path: "*", element: <NotFoundPage /> },
];

const router = createBrowserRouter(
  [
    { path: "/signin", element: <SignInPage /> },
    {
      element: <RequireSession />,
      children: [
        ...MAIN_VIEWS.map(({ to, element }) =>
          to === "/" ? { index: true, element } : { path: to.slice(1), element },
        ),
        ...OTHER_VIEWS,
      ],
    },
  ],
  { basename: "/console" },
);

export function App() {
  return (
    <SessionProvider>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </SessionProvider>
  );
}
