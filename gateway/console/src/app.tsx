import { QueryClientProvider } from "@tanstack/react-query";
import { useEffect } from "react";
import { createBrowserRouter, Navigate, Outlet, RouterProvider, useLocation } from "react-router";
import { isUnauthorized } from "./api/api-error";
import { SessionProvider, useSession } from "./auth/session-context";
import { SignInPage } from "./auth/sign-in-page";
import { Shell } from "./components/shell";
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
    <Shell>
      <Outlet />
    </Shell>
  );
}

const router = createBrowserRouter(
  [
    { path: "/signin", element: <SignInPage /> },
    {
      element: <RequireSession />,
      children: [
        { index: true, element: <OverviewPage /> },
        { path: "transactions", element: <TransactionsPage /> },
        { path: "transactions/:txId", element: <TransactionPage /> },
        { path: "batches", element: <BatchesPage /> },
        { path: "batches/:batchId", element: <BatchPage /> },
        { path: "partners", element: <PartnersPage /> },
        { path: "partners/:partnerId", element: <PartnerPage /> },
        { path: "webhooks", element: <WebhooksPage /> },
        { path: "reconciliation", element: <ReconciliationPage /> },
        { path: "approvals", element: <ApprovalsPage /> },
        { path: "reference-data", element: <ReferenceDataPage /> },
        { path: "audit", element: <AuditPage /> },
        { path: "*", element: <NotFoundPage /> },
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
