import { useState } from "react";

/** Copies a value (a new client secret) to the clipboard and says so. */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
  }
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="muted">
        {state === "copied"
          ? " Copied."
          : state === "failed"
            ? " Copy failed: select the text and copy it."
            : ""}
      </span>
    </>
  );
}
