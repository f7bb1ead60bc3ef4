import { PayoutsError } from "@payouts/client/admin";

/** A refusal or failure of the admin API, as @payouts/client reports it (status 0: no answer at all). */
export { PayoutsError as ApiError };

/** The admin token was refused: the session is over. */
export const isUnauthorized = (error: unknown) => error instanceof PayoutsError && error.status === 401;

/** A refusal (4xx) will not change by asking again; a lost connection or a 503 may. */
export const isRefusal = (error: unknown) =>
  error instanceof PayoutsError && error.status >= 400 && error.status < 500;
