import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi } from "../auth/session-context";
import { ConfirmDialog } from "../components/confirm-dialog";
import { CopyButton } from "../components/copy-button";
import { ErrorMessage } from "../components/error-message";
import { Field } from "../components/field";
import { formatTime } from "../components/format";
import { ResultNotice } from "../components/result-notice";
import { TableScroll } from "../components/table-scroll";

const checkLimit = (text: string) =>
  /^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= 1_000_000
    ? undefined
    : "A whole number from 1 to 1,000,000.";

/** The partner's API apps: create (the secret is shown once), revoke, and the previewQuotations rate limit. */
export function PartnerApps({ partnerId, apps }: { partnerId: string; apps: Types.App[] | undefined }) {
  const api = useApi();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: ["partner", partnerId] });
  const [limit, setLimit] = useState("");
  const [limitProblem, setLimitProblem] = useState<string>();
  const [created, setCreated] = useState<Types.CreatedApp>();
  const [done, setDone] = useState<string>();
  const create = useMutation({
    mutationFn: () =>
      api.createApp(partnerId, limit.trim() ? { preview_rate_limit_per_minute: Number(limit.trim()) } : {}),
    onSuccess: async (app) => {
      setCreated(app);
      setLimit("");
      await refresh();
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = limit.trim() ? checkLimit(limit) : undefined;
    setLimitProblem(problem);
    if (!problem) create.mutate();
  }
  const active = (apps ?? []).filter((a) => !a.revoked_at);
  const revoked = (apps ?? []).filter((a) => a.revoked_at);
  return (
    <section aria-labelledby="apps-heading">
      <h2 id="apps-heading">Apps</h2>
      {created && (
        <div className="notice secret" role="status">
          <p>
            <strong>App {created.client_id} created.</strong> Its client secret is shown only now: copy it and
            give it to the partner over a secure channel.
          </p>
          <p>
            <label htmlFor="new-secret">Client secret</label>
            <input id="new-secret" className="mono" readOnly value={created.client_secret} />{" "}
            <CopyButton value={created.client_secret} label="Copy secret" />
          </p>
          <button type="button" className="link-button" onClick={() => setCreated(undefined)}>
            I have stored the secret
          </button>
        </div>
      )}
      {done && <ResultNotice onDismiss={() => setDone(undefined)}>{done}</ResultNotice>}
      {apps === undefined ? null : active.length === 0 ? (
        <p className="state empty">No active apps: the partner cannot call the API until one is created.</p>
      ) : (
        <TableScroll label="Apps table">
          <table>
            <thead>
              <tr>
                <th scope="col">Client id</th>
                <th scope="col">Created</th>
                <th scope="col">Preview limit / min</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {active.map((app) => (
                <AppRow key={app.client_id} app={app} onDone={setDone} refresh={refresh} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {revoked.length > 0 && (
        <p className="muted">
          Revoked: {revoked.map((a) => `${a.client_id} (${formatTime(a.revoked_at)})`).join(", ")}
        </p>
      )}
      <form className="inline-form" onSubmit={submit} noValidate>
        <Field
          id="new-app-limit"
          label="Preview rate limit per minute (optional)"
          inputMode="numeric"
          value={limit}
          onChange={(e) => setLimit(e.target.value)}
          error={limitProblem}
        />
        <button type="submit" className="primary" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create app"}
        </button>
      </form>
      {create.isError && <ErrorMessage error={create.error} prefix="App not created" />}
    </section>
  );
}

function AppRow({
  app,
  onDone,
  refresh,
}: {
  app: Types.App;
  onDone: (message: string) => void;
  refresh: () => Promise<void>;
}) {
  const api = useApi();
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  const [limit, setLimit] = useState(String(app.preview_rate_limit_per_minute));
  const [problem, setProblem] = useState<string>();
  const revoke = useMutation({
    mutationFn: () => api.revokeApp(app.partner_id, app.client_id),
    onSuccess: async () => {
      setConfirming(false);
      onDone(`App ${app.client_id} revoked: its secrets stop working now.`);
      await refresh();
    },
  });
  const save = useMutation({
    mutationFn: (perMinute: number) => api.setAppRateLimit(app.partner_id, app.client_id, perMinute),
    onSuccess: async (saved) => {
      setEditing(false);
      onDone(
        `App ${app.client_id}: previewQuotations limited to ${saved.preview_rate_limit_per_minute} per minute.`,
      );
      await refresh();
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    const found = checkLimit(limit);
    setProblem(found);
    if (!found) save.mutate(Number(limit.trim()));
  }
  const formId = `limit-${app.client_id}`;
  return (
    <tr>
      <th scope="row" className="mono">
        {app.client_id}
      </th>
      <td>{formatTime(app.created_at)}</td>
      <td>
        {editing ? (
          <form id={formId} onSubmit={submit} noValidate>
            <Field
              id={`${formId}-input`}
              label={`Limit per minute for ${app.client_id}`}
              inputMode="numeric"
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
              error={problem}
            />
            {save.isError && <ErrorMessage error={save.error} prefix="Not saved" />}
          </form>
        ) : (
          <span className="num">{app.preview_rate_limit_per_minute}</span>
        )}
      </td>
      <td className="row-actions">
        {editing ? (
          <>
            <button type="submit" form={formId} className="primary" disabled={save.isPending}>
              Save limit
            </button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </>
        ) : (
          <>
            <button
              type="button"
              onClick={() => setEditing(true)}
              aria-label={`Edit rate limit of ${app.client_id}`}
            >
              Edit limit
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                revoke.reset();
                setConfirming(true);
              }}
              aria-label={`Revoke ${app.client_id}`}
            >
              Revoke
            </button>
          </>
        )}
        <ConfirmDialog
          open={confirming}
          title={`Revoke app ${app.client_id}?`}
          confirmLabel="Revoke app"
          danger
          pending={revoke.isPending}
          error={revoke.error}
          onConfirm={() => revoke.mutate()}
          onCancel={() => setConfirming(false)}
        >
          <p>
            Every secret of this app stops working at once. This cannot be undone; create a new app instead.
          </p>
        </ConfirmDialog>
      </td>
    </tr>
  );
}
