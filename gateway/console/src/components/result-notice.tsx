import { type ReactNode, useState } from "react";

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

/**
 * The notice of the last action's result: the element to place (nothing until there is a message) and the
 * function an action calls with its message.
 */
export function useNotice() {
  const [message, setMessage] = useState<string>();
  const notice = message ? (
    <ResultNotice onDismiss={() => setMessage(undefined)}>{message}</ResultNotice>
  ) : null;
  return [notice, setMessage] as const;
}
