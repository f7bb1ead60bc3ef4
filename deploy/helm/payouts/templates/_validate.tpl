{{/*
Checks that values.schema.json cannot express (they relate several keys). Collects every problem and
fails once, so an operator fixes them in one pass.
*/}}
{{- define "payouts.validateValues" -}}
{{- $errors := list }}
{{- $errors = concat $errors (include "payouts.validate.secrets" . | fromYamlArray) }}
{{- $errors = concat $errors (include "payouts.validate.eventKeys" . | fromYamlArray) }}
{{- $errors = concat $errors (include "payouts.validate.kafkaCredentials" . | fromYamlArray) }}
{{- $errors = concat $errors (include "payouts.validate.env" . | fromYamlArray) }}
{{- $errors = concat $errors (include "payouts.validate.scaling" . | fromYamlArray) }}
{{- $errors = concat $errors (include "payouts.validate.network" . | fromYamlArray) }}
{{- if $errors }}
{{- fail (printf "\n\nVALUES VALIDATION:\n  - %s\n" (join "\n  - " $errors)) }}
{{- end }}
{{- end }}

{{/* Either the chart's Secret (every credential given) or an existing one (none inlined). */}}
{{- define "payouts.validate.secrets" -}}
{{- $secrets := .Values.secrets }}
{{- $inline := dict "postgresql.url" .Values.postgresql.url "secrets.adminToken" $secrets.adminToken "secrets.adminTokenPrevious" $secrets.adminTokenPrevious "secrets.operatorSecretKey" $secrets.operatorSecretKey "secrets.oidcClientSecret" $secrets.oidcClientSecret "secrets.railCallbackSecret" $secrets.railCallbackSecret "secrets.sandboxClientSecret" $secrets.sandboxClientSecret "secrets.webhookSecretKey" $secrets.webhookSecretKey }}
{{- $serviceKeys := dict "secrets.serviceKeys.callerPublicKeys" $secrets.serviceKeys.callerPublicKeys "secrets.serviceKeys.gatewayPrivateKeys" $secrets.serviceKeys.gatewayPrivateKeys "secrets.serviceKeys.ledgerPrivateKeys" $secrets.serviceKeys.ledgerPrivateKeys }}
{{- $inline = merge $inline $serviceKeys }}
{{- if $secrets.existingSecret }}
{{- range $key, $value := $inline }}
{{- if $value }}
- {{ printf "%s is set together with secrets.existingSecret: put it in Secret %q instead (it would be ignored)" $key $secrets.existingSecret | quote }}
{{- end }}
{{- end }}
{{- else }}
{{- range $key := concat (list "postgresql.url" "secrets.railCallbackSecret" "secrets.webhookSecretKey") (keys $serviceKeys | sortAlpha) }}
{{- if not (get $inline $key) }}
- {{ printf "%s is required (or set secrets.existingSecret)" $key | quote }}
{{- end }}
{{- end }}
{{- with $secrets.serviceKeys.callerPublicKeys }}
{{- $publicKeys := . }}
{{- range $caller := list "gateway" "gateway-admin" "gateway-rail" "ledger" }}
{{- if not (regexMatch (printf "(^|,)%s:[A-Za-z0-9_-]{43}(,|$)" $caller) $publicKeys) }}
- {{ printf "secrets.serviceKeys.callerPublicKeys has no public key for caller %q (paste SERVICE_CALLER_KEYS from service-credentials)" $caller | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- with $secrets.webhookSecretKey }}
{{- if not (or (regexMatch "^[0-9a-fA-F]{64}$" .) (regexMatch "^[A-Za-z0-9+/]{43}=?$" .)) }}
- "secrets.webhookSecretKey must be 32 bytes: 64 hex digits or base64 (openssl rand -base64 32)"
{{- end }}
{{- end }}
{{- if and $secrets.adminToken (lt (len $secrets.adminToken) 16) }}
- "secrets.adminToken must be at least 16 characters"
{{- end }}
{{- if and $secrets.adminTokenPrevious (lt (len $secrets.adminTokenPrevious) 16) }}
- "secrets.adminTokenPrevious must be at least 16 characters"
{{- end }}
{{- if and $secrets.railCallbackSecret (lt (len $secrets.railCallbackSecret) 32) }}
- "secrets.railCallbackSecret must be at least 32 bytes (openssl rand -base64 32)"
{{- end }}
{{- end }}
{{- if not .Values.kafka.brokers }}
- "kafka.brokers is required (comma-separated host:port of the external Kafka)"
{{- end }}
{{- end }}

{{/* The ledger's event signing key and the dispatcher's public keys: inline both, or neither. */}}
{{- define "payouts.validate.eventKeys" -}}
{{- $secrets := .Values.secrets }}
{{- $inline := dict "secrets.eventSigningKey" $secrets.eventSigningKey "secrets.eventVerifyKeys" $secrets.eventVerifyKeys }}
{{- range $key, $value := $inline }}
{{- if and $secrets.existingSecret $value }}
- {{ printf "%s is set together with secrets.existingSecret: put it in Secret %q instead (it would be ignored)" $key $secrets.existingSecret | quote }}
{{- else if and (not $secrets.existingSecret) (not $value) }}
- {{ printf "%s is required (or set secrets.existingSecret): node services/runtime/dist/cli.js event-signing-keys prints a pair" $key | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* With SASL, each Kafka user's credentials: inline (all four), or in the existing Secret (none inline). */}}
{{- define "payouts.validate.kafkaCredentials" -}}
{{- $secrets := .Values.secrets }}
{{- $users := $secrets.kafka }}
{{- $inline := dict "secrets.kafka.ledger.username" $users.ledger.username "secrets.kafka.ledger.password" $users.ledger.password "secrets.kafka.webhooks.username" $users.webhooks.username "secrets.kafka.webhooks.password" $users.webhooks.password }}
{{- range $key := keys $inline | sortAlpha }}
{{- $value := get $inline $key }}
{{- if and $secrets.existingSecret $value }}
- {{ printf "%s is set together with secrets.existingSecret: put it in Secret %q instead (it would be ignored)" $key $secrets.existingSecret | quote }}
{{- else if and $.Values.kafka.saslMechanism (not $secrets.existingSecret) (not $value) }}
- {{ printf "%s is required with kafka.saslMechanism (or set secrets.existingSecret)" $key | quote }}
{{- end }}
{{- end }}
{{- end }}

{{/* Extra env may add settings, never replace the ones the chart owns. */}}
{{- define "payouts.validate.env" -}}
{{- $reserved := concat (list "DATABASE_URL" "ADMIN_TOKEN" "ADMIN_TOKEN_PREVIOUS" "ADMIN_TOKEN_ROLE" "ADMIN_PUBLIC_ORIGIN" "OPERATOR_SECRET_KEY" "OIDC_ISSUER" "OIDC_CLIENT_ID" "OIDC_CLIENT_SECRET" "OIDC_REDIRECT_URI" "OIDC_ROLE_CLAIM" "OIDC_ROLE_MAP" "RAIL_CALLBACK_SECRET" "SANDBOX_CLIENT_SECRET" "WEBHOOK_ALLOW_PRIVATE_URLS" "WEBHOOK_ALLOWED_PORTS" "WEBHOOK_SECRET_KEY" "SERVICE_PRIVATE_KEYS" "SERVICE_CALLER_KEYS" "NODE_ENV" "HOST" "GRPC_TLS_CA_FILE" "GRPC_TLS_CERT_FILE" "GRPC_TLS_KEY_FILE" "GRPC_HEALTH_PORT" "PORT" "ADMIN_PORT" "METRICS_PORT" "KAFKA_BROKERS") (values (include "payouts.databaseUrlKeys" . | fromYaml)) }}
{{- $reserved = concat $reserved (list "EVENT_SIGNING_KEY" "EVENT_VERIFY_KEYS") }}
{{- $reserved = concat $reserved (list "KAFKA_TLS" "KAFKA_SASL_MECHANISM" "KAFKA_SASL_USERNAME" "KAFKA_SASL_PASSWORD" "KAFKA_SESSION_TIMEOUT_MS") }}
{{- $sources := dict "config.extraEnv" .Values.config.extraEnv "otel.env" .Values.otel.env }}
{{- range $component, $key := include "payouts.components" . | fromYaml }}
{{- $_ := set $sources (printf "%s.extraEnv" $key) (index $.Values $key).extraEnv }}
{{- end }}
{{- range $source, $env := $sources }}
{{- range $name, $_ := $env }}
{{- if has $name $reserved }}
- {{ printf "%s.%s: %s is set by the chart" $source $name $name | quote }}
{{- end }}
{{- if and (eq $source "otel.env") (not (hasPrefix "OTEL_" $name)) }}
- {{ printf "otel.env.%s: only OTEL_* variables belong here (use config.extraEnv)" $name | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- if eq (toString .Values.image.tag) "latest" }}
- "image.tag: use a fixed version or image.digest, not latest"
{{- end }}
{{- end }}

{{- define "payouts.validate.scaling" -}}
{{- range $component, $key := include "payouts.components" . | fromYaml }}
{{- $scaling := (index $.Values $key).autoscaling }}
{{- if and $scaling $scaling.enabled (gt (int $scaling.minReplicas) (int $scaling.maxReplicas)) }}
- {{ printf "%s.autoscaling.minReplicas (%v) is above maxReplicas (%v)" $key $scaling.minReplicas $scaling.maxReplicas | quote }}
{{- end }}
{{- end }}
{{- if eq (int .Values.gateway.port) (int .Values.gateway.adminPort) }}
- "gateway.port and gateway.adminPort must differ: the admin listener is never public"
{{- end }}
{{- end }}

{{- define "payouts.validate.network" -}}
{{- if and .Values.tls.enabled (not .Values.tls.existingSecret) }}
- "tls.existingSecret is required when tls.enabled (a Secret with ca.crt, tls.crt and tls.key)"
{{- end }}
{{- $ingress := .Values.ingress }}
{{- if and $ingress.enabled (not $ingress.hosts) }}
- "ingress.hosts needs at least one host when ingress.enabled"
{{- end }}
{{- if and $ingress.enabled $ingress.tls.enabled (not $ingress.tls.secretName) }}
- "ingress.tls.secretName is required when ingress.tls.enabled"
{{- end }}
{{- $np := .Values.networkPolicy }}
{{- if $np.enabled }}
{{- if not $np.postgresql.cidrs }}
- "networkPolicy.postgresql.cidrs is empty: no pod could reach PostgreSQL"
{{- end }}
{{- if not $np.kafka.cidrs }}
- "networkPolicy.kafka.cidrs is empty: ledger and webhooks could not reach Kafka"
{{- end }}
{{- end }}
{{- end }}
