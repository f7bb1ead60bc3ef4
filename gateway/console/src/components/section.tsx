import type { ReactNode } from "react";

/** A part of a view named by its heading (`aria-labelledby`), so it is a landmark screen readers list. */
export function Section({
  headingId,
  title,
  children,
}: {
  headingId: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

/** A form's submit button, which says it is working while the request is on its way. */
export function SubmitButton({
  pending,
  text,
  pendingText = "Saving…",
}: {
  pending: boolean;
  text: string;
  pendingText?: string;
}) {
  return (
    <button type="submit" className="primary" disabled={pending}>
      {pending ? pendingText : text}
    </button>
  );
}
