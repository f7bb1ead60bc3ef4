import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCan } from "../auth/session-context";
import { ErrorMessage } from "./error-message";

/**
 * A row's one-click switch (enable or disable, pause or resume) for a role that may call `route`: it
 * reports what the API saved through `onDone`, refreshes `invalidates`, and shows a refusal under itself.
 */
export function ToggleAction<T>({
  route,
  text,
  target,
  danger,
  toggle,
  invalidates,
  describe,
  onDone,
}: {
  route: string;
  /** The button's text, e.g. "Disable"; its accessible name adds the target. */
  text: string;
  target: string;
  danger: boolean;
  toggle: () => Promise<T>;
  invalidates: QueryKey;
  /** What the answer means, for the notice. */
  describe: (saved: T) => string;
  onDone: (message: string) => void;
}) {
  const allowed = useCan()(route);
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: toggle,
    onSuccess: async (saved) => {
      onDone(describe(saved));
      await client.invalidateQueries({ queryKey: invalidates });
    },
  });
  return (
    <>
      {allowed && (
        <button
          type="button"
          className={danger ? "danger" : "primary"}
          onClick={() => mutation.mutate()}
          disabled={mutation.isPending}
          aria-label={`${text} ${target}`}
        >
          {text}
        </button>
      )}
      {mutation.isError && <ErrorMessage error={mutation.error} prefix="Not changed" />}
    </>
  );
}
