/** `fn` runs on the first call only; later calls share its promise (stops that cleanup repeats). */
export function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= fn();
    return running;
  };
}
