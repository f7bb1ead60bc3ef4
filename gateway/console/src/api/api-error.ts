/** An answer of the admin API other than 2xx, or no answer at all (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly requestId?: string,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** The admin token was refused: the session is over. */
  get unauthorized(): boolean {
    return this.status === 401;
  }
}

/** Reads the platform's error body `{code, message, field?, request_id}`; anything else becomes a generic error. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  const requestId = res.headers.get("x-request-id") ?? undefined;
  let body: { code?: unknown; message?: unknown; field?: unknown; request_id?: unknown } = {};
  try {
    body = (await res.json()) as typeof body;
  } catch {
    // not JSON: keep the status alone
  }
  return new ApiError(
    res.status,
    typeof body.code === "string" ? body.code : `HTTP_${res.status}`,
    typeof body.message === "string" ? body.message : `the admin API answered ${res.status}`,
    typeof body.field === "string" ? body.field : undefined,
    typeof body.request_id === "string" ? body.request_id : requestId,
  );
}

export const unreachable = (cause: unknown) =>
  new ApiError(
    0,
    "NETWORK_ERROR",
    `the admin API could not be reached (${cause instanceof Error ? cause.message : String(cause)})`,
  );
