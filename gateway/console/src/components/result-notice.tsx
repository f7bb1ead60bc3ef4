import type { ReactNode } from "react";

/** What an action did, announced politely to screen readers and kept on screen until dismissed. */
export function ResultNotice({ children, onDismiss }: { children: ReactNode; onDismiss: () => void }) {
  return (
    <div className="notice" role="status">
      <div>{children}</div>
      <button type="button" className="link-button" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
