/**
 * Bounds the scrypt work of credential checks across the whole process, so that a flood of logins from
 * many addresses cannot take every thread of libuv's pool (4 by default; file system and DNS use it too):
 * at most `maxConcurrent` checks run at once, at most `maxQueued` wait, and waiting priority checks (secrets
 * already known good) run before the others. A check that finds the queue full is not run at all.
 */
export interface CheckGate {
  /** Runs `check` when a slot frees up; `busy` when the queue is full. */
  run<T>(check: () => Promise<T>, priority: boolean): Promise<{ busy: false; value: T } | { busy: true }>;
}

export function createCheckGate(options: { maxConcurrent: number; maxQueued: number }): CheckGate {
  let running = 0;
  const priorityQueue: Array<() => void> = [];
  const queue: Array<() => void> = [];
  const next = () => {
    const start = priorityQueue.shift() ?? queue.shift();
    if (start) start();
    else running--;
  };
  return {
    async run(check, priority) {
      if (running >= options.maxConcurrent) {
        if (priorityQueue.length + queue.length >= options.maxQueued) return { busy: true };
        // The slot is handed over by `next`, so `running` stays counted while the waiter starts.
        await new Promise<void>((resolve) => (priority ? priorityQueue : queue).push(resolve));
      } else {
        running++;
      }
      try {
        return { busy: false, value: await check() };
      } finally {
        next();
      }
    },
  };
}
