import { type FormEvent, type ReactNode, useEffect, useId, useRef } from "react";
import { ErrorMessage } from "./error-message";

/**
 * A modal confirmation on the native <dialog>: the browser traps focus, Escape cancels, and focus returns
 * to the button that opened it. The action runs only on the explicit confirm button; its error stays in
 * the dialog so the operator can correct and retry.
 */
export function ConfirmDialog({
  open,
  title,
  confirmLabel,
  danger = false,
  pending,
  error,
  onConfirm,
  onCancel,
  children,
}: {
  open: boolean;
  title: string;
  confirmLabel: string;
  danger?: boolean;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!pending) onConfirm();
  }

  return (
    <dialog ref={ref} aria-labelledby={titleId} onCancel={onCancel} className="dialog">
      <form onSubmit={submit}>
        <h2 id={titleId}>{title}</h2>
        {children}
        {error ? <ErrorMessage error={error} prefix="Not done" /> : null}
        <div className="actions">
          <button type="button" onClick={onCancel} disabled={pending}>
            Cancel
          </button>
          <button type="submit" className={danger ? "danger" : "primary"} disabled={pending}>
            {pending ? "Working…" : confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}
