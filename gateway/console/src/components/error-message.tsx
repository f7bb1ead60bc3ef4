import { ApiError } from "../api/api-error";

/** An API error as the operator needs it: what failed, the stable code and field, and the request id to quote. */
export function ErrorMessage({ error, prefix }: { error: unknown; prefix: string }) {
  if (error instanceof ApiError) {
    return (
      <p className="error" role="alert">
        {prefix}: {error.message}{" "}
        <span className="muted">
          ({error.status ? `${error.status} ` : ""}
          {error.code}
          {error.field ? `, field ${error.field}` : ""}
          {error.requestId ? `, request ${error.requestId}` : ""})
        </span>
      </p>
    );
  }
  return (
    <p className="error" role="alert">
      {prefix}: {error instanceof Error ? error.message : String(error)}
    </p>
  );
}
