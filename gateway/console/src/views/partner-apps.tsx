import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import type { Types } from "../api/admin-api";
import { useApi, useCan } from "../auth/session-context";
import { ConfirmDialog, useConfirm } from "../components/confirm-dialog";
import { CopyButton } from "../components/copy-button";
import { type EditableColumn, EditableTable } from "../components/editable-table";
import { ErrorMessage } from "../components/error-message";
import { Field } from "../components/field";
import { formatTime } from "../components/format";
import { QueryState } from "../components/query-state";
import { useNotice } from "../components/result-notice";
import { Section, SubmitButton } from "../components/section";

const checkLimit = (text: string) =>
  /^\d+$/.test(text.trim()) && Number(text) >= 1 && Number(text) <= 1_000_000
    ? undefined
    : "A whole number from 1 to 1,000,000.";

/** The partner's API apps: create (the secret is shown once), revoke, and the previewQuotations rate limit. */
export function PartnerApps({ partnerId }: { partnerId: string }) {
  const api = useApi();
  const client = useQueryClient();
  const query = useQuery({ queryKey: ["apps", partnerId], queryFn: () => api.listApps(partnerId) });
  const refresh = () => client.invalidateQueries({ queryKey: ["apps", partnerId] });
  const [limit, setLimit] = useState("");
  const [limitProblem, setLimitProblem] = useState<string>();
  const [created, setCreated] = useState<Types.CreatedApp>();
  const [notice, setDone] = useNotice();
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
  const can = useCan();
  const apps = query.data?.apps;
  const active = (apps ?? []).filter((a) => !a.revoked_at);
  const revoked = (apps ?? []).filter((a) => a.revoked_at);
  return (
    <Section headingId="apps-heading" title="Apps">
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
      {notice}
      {apps === undefined ? (
        <QueryState query={query} what="apps">
          {() => null}
        </QueryState>
      ) : active.length === 0 ? (
        <p className="state empty">No active apps: the partner cannot call the API until one is created.</p>
      ) : (
        <EditableTable
          label="Apps table"
          idPrefix="limit"
          rows={active}
          rowKey={(app) => app.client_id}
          columns={APP_COLUMNS}
          draftOf={(app) => ({ preview_rate_limit_per_minute: String(app.preview_rate_limit_per_minute) })}
          validate={(draft) => ({
            preview_rate_limit_per_minute: checkLimit(draft.preview_rate_limit_per_minute),
          })}
          save={async (app, draft) => {
            const perMinute = Number(draft.preview_rate_limit_per_minute.trim());
            const saved = await api.setAppRateLimit(app.partner_id, app.client_id, perMinute);
            return `App ${app.client_id}: previewQuotations limited to ${saved.preview_rate_limit_per_minute} per minute.`;
          }}
          invalidates={["apps", partnerId]}
          onSaved={setDone}
          editable={can("PATCH /admin/partners/{partner_id}/apps/{client_id}")}
          editButton={(app) => ({ text: "Edit limit", label: `Edit limit of ${app.client_id}` })}
          saveText={() => "Save limit"}
          actions={(app) =>
            can("DELETE /admin/partners/{partner_id}/apps/{client_id}") && (
              <RevokeApp app={app} onDone={setDone} refresh={refresh} />
            )
          }
        />
      )}
      {revoked.length > 0 && (
        <p className="muted">
          Revoked: {revoked.map((a) => `${a.client_id} (${formatTime(a.revoked_at)})`).join(", ")}
        </p>
      )}
      {can("POST /admin/partners/{partner_id}/apps") && (
        <form className="inline-form" onSubmit={submit} noValidate>
          <Field
            id="new-app-limit"
            label="Preview rate limit per minute (optional)"
            inputMode="numeric"
            value={limit}
            onChange={(e) => setLimit(e.target.value)}
            error={limitProblem}
          />
          <SubmitButton pending={create.isPending} text="Create app" pendingText="Creating…" />
        </form>
      )}
      {create.isError && <ErrorMessage error={create.error} prefix="App not created" />}
    </Section>
  );
}

const APP_COLUMNS: readonly EditableColumn<Types.App, { preview_rate_limit_per_minute: string }>[] = [
  { header: "Client id", rowHeader: true, className: "mono", show: (app) => app.client_id },
  { header: "Created", show: (app) => formatTime(app.created_at) },
  {
    header: "Preview limit / min",
    className: "num",
    show: (app) => app.preview_rate_limit_per_minute,
    edit: {
      field: "preview_rate_limit_per_minute",
      label: (app) => `Limit per minute for ${app.client_id}`,
      inputMode: "numeric",
    },
  },
];

/** Revoking an app, after confirmation: every secret of it stops working. */
function RevokeApp({
  app,
  onDone,
  refresh,
}: {
  app: Types.App;
  onDone: (message: string) => void;
  refresh: () => Promise<void>;
}) {
  const api = useApi();
  const confirm = useConfirm();
  const revoke = useMutation({
    mutationFn: () => api.revokeApp(app.partner_id, app.client_id),
    onSuccess: async () => {
      confirm.close();
      onDone(`App ${app.client_id} revoked: its secrets stop working now.`);
      await refresh();
    },
  });
  return (
    <>
      <button
        type="button"
        className="danger"
        onClick={() => confirm.openFor(revoke)}
        aria-label={`Revoke ${app.client_id}`}
      >
        Revoke
      </button>
      <ConfirmDialog
        {...confirm.bind(revoke)}
        title={`Revoke app ${app.client_id}?`}
        confirmLabel="Revoke app"
        danger
        onConfirm={() => revoke.mutate()}
      >
        <p>
          Every secret of this app stops working at once. This cannot be undone; create a new app instead.
        </p>
      </ConfirmDialog>
    </>
  );
}
