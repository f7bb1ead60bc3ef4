/**
 * What a long-running script (the bench, the fault-injection suite) must undo, whichever way it ends:
 * cleanups run in reverse order, once, on success, failure, signal or the time limit; a failing one is
 * logged and the others still run.
 */
export interface CleanupStack {
  readonly cleanups: Array<{ name: string; run: () => Promise<unknown> | unknown }>;
  cleanUp(): Promise<void>;
}

export function createCleanupStack(log: (line: string) => void): CleanupStack {
  const cleanups: CleanupStack["cleanups"] = [];
  let cleaning: Promise<void> | undefined;
  return {
    cleanups,
    cleanUp() {
      cleaning ??= (async () => {
        for (const { name, run } of cleanups.reverse()) {
          try {
            await run();
          } catch (error) {
            log(`cleanup of ${name} failed: ${(error as Error).message}`);
          }
        }
      })();
      return cleaning;
    },
  };
}
