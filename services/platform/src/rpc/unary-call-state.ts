/**
 * What one unary call served by connect-unary-handler.ts carries besides its request: its deadline, the
 * headers and trailers its handler answers with, and its abort signal, made only when someone asks for
 * it. connect-node makes three AbortControllers per call (the request's, the deadline's and a linked
 * one), arms a deadline timer and aborts them all with a new DOMException at the end of every call,
 * read or not (≈5 % of a service's busy time, test/bench/README.md); no handler here reads the signal.
 *
 * Once asked for, it behaves as connect's: it aborts with DEADLINE_EXCEEDED when `connect-timeout-ms`
 * passes, when the caller goes away before the answer, and when the call ends (with its error, if any).
 */
import type { ServerResponse } from "node:http";
import { Code, ConnectError } from "@connectrpc/connect";

/** setTimeout cannot wait longer (a longer delay fires after 1 ms); a deadline beyond it never fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class UnaryCallState {
  readonly responseHeader = new Headers();
  readonly responseTrailer = new Headers();
  private controller: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ended = false;

  /** `deadline`: epoch ms after which the call is over (`connect-timeout-ms` from its arrival). */
  constructor(
    private readonly response: ServerResponse,
    readonly deadline: number | undefined,
  ) {}

  /** Milliseconds left before the deadline, as connect's `HandlerContext.timeoutMs()`. */
  timeoutMs(): number | undefined {
    return this.deadline === undefined ? undefined : this.deadline - Date.now();
  }

  get signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    const controller = new AbortController();
    this.controller = controller;
    if (this.ended) {
      controller.abort();
      return controller.signal;
    }
    const left = this.timeoutMs();
    if (left !== undefined && left <= 0) this.expire();
    else if (left !== undefined && left <= MAX_TIMER_MS) this.timer = setTimeout(() => this.expire(), left);
    this.response.once("close", this.onClose);
    return controller.signal;
  }

  /** The call is answered (or failed with `reason`): a signal handed out aborts, its timer is cleared. */
  end(reason?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (this.controller === undefined) return;
    clearTimeout(this.timer);
    this.response.off("close", this.onClose);
    this.controller.abort(reason);
  }

  private expire(): void {
    this.controller?.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded));
  }

  private readonly onClose = () => {
    if (!this.response.writableFinished) {
      this.controller?.abort(new ConnectError("the caller closed the call", Code.Canceled));
    }
  };
}
