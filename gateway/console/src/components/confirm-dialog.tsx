import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react";
import { ErrorMessage } from "./error-message";
import { Field } from "./field";

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

/** What a ConfirmDialog shows of the action it confirms. */
interface Action {
  readonly isPending: boolean;
  readonly error: unknown;
  readonly reset: () => void;
}

/**
 * Whether a ConfirmDialog is open: `openFor(action)` opens it with the action's last outcome cleared,
 * `bind(action)` gives the dialog its state (open, pending, error, and Cancel closing it).
 */
export function useConfirm() {
  const [open, setOpen] = useState(false);
  const close = () => setOpen(false);
  return {
    open,
    show: () => setOpen(true),
    close,
    openFor: (action: Action) => {
      action.reset();
      setOpen(true);
    },
    bind: (action: Action) => ({ open, pending: action.isPending, error: action.error, onCancel: close }),
  };
}

/**
 * A ConfirmDialog for one of several actions (approve or reject, refund or fail) that takes a reason:
 * `openFor(choice, action)` opens it for that choice with the action's last outcome and the reason's
 * problem cleared; `require(message)` shows why the reason is needed and refuses, or lets the action go;
 * `done()` closes it and clears the reason.
 */
export function useReasonDialog<C>() {
  const [choice, setChoice] = useState<C>();
  const [reason, setReason] = useState("");
  const [problem, setProblem] = useState<string>();
  const close = () => setChoice(undefined);
  return {
    choice,
    reason: reason.trim(),
    openFor: (next: C, action: Action) => {
      action.reset();
      setProblem(undefined);
      setChoice(next);
    },
    require: (message: string | undefined) => {
      if (message) setProblem(message);
      return !message;
    },
    done: () => {
      close();
      setReason("");
    },
    bind: (action: Action) => ({
      open: choice !== undefined,
      pending: action.isPending,
      error: action.error,
      onCancel: close,
    }),
    /** The props of the ReasonField. */
    field: { value: reason, onChange: setReason, error: problem },
  };
}

/** The reason of an action, kept with it (at most 500 characters). */
export function ReasonField({
  id,
  label = "Reason",
  value,
  onChange,
  error,
}: {
  id: string;
  label?: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  return (
    <Field
      id={id}
      label={label}
      value={value}
      maxLength={500}
      onChange={(e) => onChange(e.target.value)}
      error={error}
    />
  );
}
