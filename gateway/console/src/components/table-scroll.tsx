import type { ReactNode } from "react";

/**
 * A table that scrolls sideways on narrow screens instead of widening the page. The region is focusable so
 * keyboard users can scroll it too (axe: scrollable-region-focusable), and named after its table.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard.
    <section className="table-wrap" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
