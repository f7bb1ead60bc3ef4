/**
 * Records what would have ended a process: uncaught exceptions (an `'error'` event nobody listens to
 * becomes one) and unhandled rejections. A test that runs services in its own process asserts the list
 * stays empty; without the listeners, vitest alone would only report them after the test passed.
 */
export interface ProcessFaults {
  /** The faults seen since the last call, emptied. */
  take(): unknown[];
  stop(): void;
}

export function watchProcessFaults(): ProcessFaults {
  let seen: unknown[] = [];
  const record = (fault: unknown) => {
    seen.push(fault);
  };
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  return {
    take() {
      const out = seen;
      seen = [];
      return out;
    },
    stop() {
      process.off("uncaughtException", record);
      process.off("unhandledRejection", record);
    },
  };
}
