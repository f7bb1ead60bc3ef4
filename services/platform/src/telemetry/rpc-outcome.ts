import { Code, ConnectError } from "@connectrpc/connect";
import { errorDetailOf } from "../rpc/service-error.js";

/** How an RPC ended, in the terms spans and metrics label it with. */
export interface RpcOutcome {
  /** The gRPC status code; 0 is OK (which Connect's Code enum leaves out). */
  readonly code: number;
  /** "ok", the documented reason of a refusal (e.g. INSUFFICIENT_FUNDS), or the gRPC code name. */
  readonly outcome: string;
}

export const RPC_OK: RpcOutcome = { code: 0, outcome: "ok" };

export function rpcOutcomeOf(error: unknown): RpcOutcome {
  const connectError = ConnectError.from(error);
  const reason = errorDetailOf(connectError)?.reason;
  return { code: connectError.code, outcome: reason || codeName(connectError.code) };
}

function codeName(code: Code): string {
  return (Code[code] ?? "unknown").replace(/[A-Z]/g, (c, i: number) => (i === 0 ? c : `_${c}`)).toLowerCase();
}

/** Codes that mean the server failed (OpenTelemetry's gRPC conventions), not that it refused a request. */
export function isServerFault(code: number): boolean {
  return [
    Code.Unknown,
    Code.DeadlineExceeded,
    Code.Unimplemented,
    Code.Internal,
    Code.Unavailable,
    Code.DataLoss,
  ].includes(code);
}

/** tx_id and partner_id of a request or response message, when it names them (ids only, never data). */
export function rpcIdsOf(message: unknown): Record<string, string> {
  const ids: Record<string, string> = {};
  const read = (m: unknown) => {
    if (m === null || typeof m !== "object") return;
    const { txId, partnerId } = m as { txId?: unknown; partnerId?: unknown };
    if (typeof txId === "string" && txId !== "" && !ids.tx_id) ids.tx_id = txId;
    if (typeof partnerId === "string" && partnerId !== "" && !ids.partner_id) ids.partner_id = partnerId;
  };
  read(message);
  read((message as { transaction?: unknown } | null)?.transaction);
  return ids;
}
