import type { Logger } from "../logging/logger.js";

/**
 * A background loop: runs `run` every `intervalMs` (sooner when woken), never two runs at once, and
 * survives failures (logged, retried after `failureDelayMs(consecutiveFailures)`). `stop` waits for the
 * run in progress to finish.
 */
export interface PeriodicTask {
  start(): void;
  wake(): void;
  stop(): Promise<void>;
}

export interface PeriodicTaskOptions {
  readonly name: string;
  readonly intervalMs: number;
  readonly logger: Logger;
  readonly run: () => Promise<void>;
  readonly failureDelayMs?: (failures: number) => number;
}

export function createPeriodicTask(options: PeriodicTaskOptions): PeriodicTask {
  let running = false;
  let woken = false;
  let failures = 0;
  let timer: NodeJS.Timeout | undefined;
  let wakeSleeper: (() => void) | undefined;
  let loop: Promise<void> | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wakeSleeper = resolve;
      timer = setTimeout(resolve, ms);
    }).finally(() => {
      clearTimeout(timer);
      wakeSleeper = undefined;
    });

  const runLoop = async () => {
    while (running) {
      woken = false;
      let delay = options.intervalMs;
      try {
        await options.run();
        failures = 0;
      } catch (error) {
        failures++;
        delay = options.failureDelayMs?.(failures) ?? options.intervalMs;
        options.logger.warn({ err: error, task: options.name, failures }, "background task failed");
      }
      if (running && !woken) await sleep(delay);
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      loop = runLoop();
    },
    wake() {
      woken = true;
      wakeSleeper?.();
    },
    async stop() {
      running = false;
      wakeSleeper?.();
      await loop;
    },
  };
}
