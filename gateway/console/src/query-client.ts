import { MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api/api-error";

/** Called with every failed query or mutation; the session ends on a refused token. */
let onFailure: (error: unknown) => void = () => {};
export const setFailureHandler = (handler: (error: unknown) => void) => {
  onFailure = handler;
};

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error) => onFailure(error) }),
  mutationCache: new MutationCache({ onError: (error) => onFailure(error) }),
  defaultOptions: {
    queries: {
      // A refusal (4xx) will not change by asking again; a lost connection or a 503 may.
      retry: (count, error) =>
        count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      staleTime: 2_000,
      refetchOnWindowFocus: true,
    },
    // Actions are never retried behind the operator's back.
    mutations: { retry: false },
  },
});
