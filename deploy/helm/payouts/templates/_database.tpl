{{/*
Each component connects to PostgreSQL as its own role, which may read and write its own schema's rows and
nothing else; the migrations Job (`migrate`, as postgresql.url, the migration role owning every schema)
creates the roles from the <SERVICE>_DATABASE_URL it is given. Component -> that variable's name.
*/}}
{{- define "payouts.databaseUrlKeys" -}}
gateway: GATEWAY_DATABASE_URL
ledger: LEDGER_DATABASE_URL
lookup: LOOKUP_DATABASE_URL
pricing: PRICING_DATABASE_URL
sandbox-rail: SANDBOX_RAIL_DATABASE_URL
webhooks: WEBHOOKS_DATABASE_URL
{{- end }}

{{/* (dict "ctx" $ "component" "ledger") -> LEDGER_DATABASE_URL */}}
{{- define "payouts.databaseUrlKey" -}}
{{- get (include "payouts.databaseUrlKeys" .ctx | fromYaml) .component }}
{{- end }}

{{/*
A component's URL in the chart's Secrets: postgresql.url with the role <postgresql.rolePrefix>_<service>
and a password derived from postgresql.url (SHA-256; the same on every render and upgrade, new when
postgresql.url changes).
*/}}
{{- define "payouts.serviceDatabaseUrl" -}}
{{- $url := urlParse .ctx.Values.postgresql.url }}
{{- $service := include "payouts.databaseUrlKey" . | trimSuffix "_DATABASE_URL" | lower }}
{{- $role := printf "%s_%s" .ctx.Values.postgresql.rolePrefix $service }}
{{- $password := printf "payouts-service-role/%s/%s" .ctx.Values.postgresql.url .component | sha256sum | trunc 40 }}
{{- $_ := set $url "userinfo" (printf "%s:%s" $role $password) }}
{{- urlJoin $url }}
{{- end }}

{{/* Name of the Secret holding a component's own DATABASE_URL (chart-managed credentials). */}}
{{- define "payouts.databaseSecretName" -}}
{{- printf "%s-database" (include "payouts.componentName" .) }}
{{- end }}

{{/*
The DATABASE_URL env entry of a component's container: its own role's URL, from its own Secret, or from
key <SERVICE>_DATABASE_URL of secrets.existingSecret. Never the migration role's.
*/}}
{{- define "payouts.databaseEnv" -}}
- name: DATABASE_URL
  valueFrom:
    secretKeyRef:
      {{- if .ctx.Values.secrets.existingSecret }}
      name: {{ .ctx.Values.secrets.existingSecret }}
      key: {{ include "payouts.databaseUrlKey" . }}
      {{- else }}
      name: {{ include "payouts.databaseSecretName" . }}
      key: DATABASE_URL
      {{- end }}
{{- end }}
