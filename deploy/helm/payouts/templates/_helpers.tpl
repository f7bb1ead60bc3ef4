{{/*
Names, labels and the pieces every workload shares. Templates that take a component are called with
(dict "ctx" $ "component" "<component>"), where component is the role name the image runs
(gateway, lookup, pricing, ledger, webhooks, sandbox-rail, migrate).
*/}}

{{- define "payouts.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* "<release>-<chart>", or the release name alone when it already contains the chart name. */}}
{{- define "payouts.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "payouts.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Resource name of one component: "<fullname>-<component>". */}}
{{- define "payouts.componentName" -}}
{{- printf "%s-%s" (include "payouts.fullname" .ctx) .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Long-running components and the values key that configures each (ranged over in sorted order). */}}
{{- define "payouts.components" -}}
gateway: gateway
ledger: ledger
lookup: lookup
pricing: pricing
sandbox-rail: sandboxRail
webhooks: webhooks
{{- end }}

{{/* The values key of a component ("sandbox-rail" -> "sandboxRail"). */}}
{{- define "payouts.valuesKey" -}}
{{- get (include "payouts.components" .ctx | fromYaml) .component }}
{{- end }}

{{- define "payouts.selectorLabels" -}}
app.kubernetes.io/name: {{ include "payouts.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{- define "payouts.labels" -}}
helm.sh/chart: {{ include "payouts.chart" .ctx }}
{{ include "payouts.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
app.kubernetes.io/part-of: {{ include "payouts.name" .ctx }}
{{- end }}

{{/* Labels of a resource that belongs to the release as a whole (ConfigMap, Secret, ServiceAccount). */}}
{{- define "payouts.releaseLabels" -}}
helm.sh/chart: {{ include "payouts.chart" . }}
app.kubernetes.io/name: {{ include "payouts.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: {{ include "payouts.name" . }}
{{- end }}

{{- define "payouts.image" -}}
{{- $image := .Values.image }}
{{- if $image.digest }}
{{- printf "%s@%s" $image.repository $image.digest }}
{{- else }}
{{- printf "%s:%s" $image.repository (default .Chart.AppVersion $image.tag) }}
{{- end }}
{{- end }}

{{- define "payouts.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "payouts.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* Secret holding DATABASE_URL, ADMIN_TOKEN and RAIL_CALLBACK_SECRET: the operator's or the chart's. */}}
{{- define "payouts.secretName" -}}
{{- default (include "payouts.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{/* Base URL of a gRPC component inside the namespace, as the *_ADDR variables expect. */}}
{{- define "payouts.grpcAddr" -}}
{{- $values := index .ctx.Values (include "payouts.valuesKey" .) }}
{{- printf "%s://%s:%d" (ternary "https" "http" .ctx.Values.tls.enabled) (include "payouts.componentName" .) (int $values.port) }}
{{- end }}

{{/*
env entries read from the Secret; (dict "ctx" $ "keys" (list "DATABASE_URL" "SERVICE_PRIVATE_KEYS:LEDGER_SERVICE_PRIVATE_KEYS" ...)).
"NAME:KEY" reads Secret key KEY into variable NAME (a process's own private keys).
*/}}
{{- define "payouts.secretEnv" -}}
{{- $secret := include "payouts.secretName" .ctx }}
{{- $env := list }}
{{- range .keys }}
{{- $name := first (splitList ":" .) }}
{{- $key := last (splitList ":" .) }}
{{- $env = append $env (dict "name" $name "valueFrom" (dict "secretKeyRef" (dict "name" $secret "key" $key))) }}
{{- end }}
{{- toYaml $env }}
{{- end }}

{{/*
The service identities of the chart's Secret, from secrets.serviceKeys (services/platform/README.md):
the callers' public keys for every server, each caller process's private keys under its own key.
*/}}
{{- define "payouts.serviceCredentials" -}}
{{- $keys := .Values.secrets.serviceKeys }}
SERVICE_CALLER_KEYS: {{ $keys.callerPublicKeys | quote }}
GATEWAY_SERVICE_PRIVATE_KEYS: {{ $keys.gatewayPrivateKeys | quote }}
LEDGER_SERVICE_PRIVATE_KEYS: {{ $keys.ledgerPrivateKeys | quote }}
{{- end }}

{{/*
Pod template metadata: labels plus checksums so a config or secret change rolls the pods.
(dict "ctx" $ "component" "lookup" "values" .Values.lookup)
*/}}
{{- define "payouts.podMetadata" -}}
labels:
  {{- include "payouts.labels" . | nindent 2 }}
  {{- with .ctx.Values.podLabels }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
annotations:
  checksum/config: {{ include (print .ctx.Template.BasePath "/configmap.yaml") .ctx | sha256sum }}
  {{- if not .ctx.Values.secrets.existingSecret }}
  checksum/secret: {{ include (print .ctx.Template.BasePath "/secret.yaml") .ctx | sha256sum }}
  checksum/database: {{ include "payouts.serviceDatabaseUrl" . | sha256sum }}
  {{- end }}
  {{- if .ctx.Values.metrics.podAnnotations }}
  prometheus.io/scrape: "true"
  prometheus.io/port: {{ .ctx.Values.metrics.port | quote }}
  prometheus.io/path: /metrics
  {{- end }}
  {{- with .ctx.Values.podAnnotations }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
  {{- with .values.podAnnotations }}
  {{- toYaml . | nindent 2 }}
  {{- end }}
{{- end }}

{{/* Scheduling fields shared by every pod (Deployments and the migrations Job). */}}
{{- define "payouts.podPlacement" -}}
{{- with .Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end }}

{{/* Hardening shared by every pod: no API token, non-root, a writable /tmp only. */}}
{{- define "payouts.podHardening" -}}
automountServiceAccountToken: false
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
securityContext:
  {{- toYaml .Values.podSecurityContext | nindent 2 }}
volumes:
  # readOnlyRootFilesystem: Node and its libraries may still write temporary files here.
  - name: tmp
    emptyDir:
      sizeLimit: {{ .Values.tmpVolume.sizeLimit }}
  {{- if .Values.tls.enabled }}
  # Mutual TLS between the services: CA, certificate and key (GRPC_TLS_*_FILE).
  - name: grpc-tls
    secret:
      secretName: {{ .Values.tls.existingSecret }}
      defaultMode: 0440
  {{- end }}
{{- end }}

{{/* Pod spec fields of a long-running component's Deployment, before its containers. */}}
{{- define "payouts.podSpecCommon" -}}
{{- $values := .ctx.Values -}}
serviceAccountName: {{ include "payouts.serviceAccountName" .ctx }}
{{ include "payouts.podHardening" .ctx }}
terminationGracePeriodSeconds: {{ $values.terminationGracePeriodSeconds }}
{{- include "payouts.podPlacement" .ctx }}
{{- if $values.topologySpread.enabled }}
topologySpreadConstraints:
  - maxSkew: {{ $values.topologySpread.maxSkew }}
    topologyKey: {{ $values.topologySpread.topologyKey }}
    whenUnsatisfiable: {{ $values.topologySpread.whenUnsatisfiable }}
    labelSelector:
      matchLabels:
        {{- include "payouts.selectorLabels" . | nindent 8 }}
{{- end }}
{{- end }}

{{/* Container fields shared by every workload: image, hardening, shared config, the /tmp mount. */}}
{{- define "payouts.containerCommon" -}}
image: {{ include "payouts.image" .ctx }}
imagePullPolicy: {{ .ctx.Values.image.pullPolicy }}
args: [{{ .component | quote }}]
securityContext:
  {{- toYaml .ctx.Values.containerSecurityContext | nindent 2 }}
envFrom:
  - configMapRef:
      name: {{ include "payouts.fullname" .ctx }}
volumeMounts:
  - name: tmp
    mountPath: /tmp
  {{- if .ctx.Values.tls.enabled }}
  - name: grpc-tls
    mountPath: /etc/payouts/grpc-tls
    readOnly: true
  {{- end }}
{{- end }}

{{/* Per-process env: listen port, service name for telemetry, operator extras. */}}
{{- define "payouts.processEnv" -}}
- name: PORT
  value: {{ .port | quote }}
- name: OTEL_SERVICE_NAME
  value: {{ printf "payouts-%s" .component | quote }}
{{- range $name, $value := .values.extraEnv }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- end }}

{{- define "payouts.probeTiming" -}}
periodSeconds: {{ .periodSeconds }}
timeoutSeconds: {{ .timeoutSeconds }}
failureThreshold: {{ .failureThreshold }}
{{- end }}

{{/*
Kafka TLS and SASL for the two processes that use Kafka (the ledger publishes, the webhooks service
consumes), each with its own Kafka user from the Secret (<PREFIX>_KAFKA_USERNAME / _PASSWORD). Nothing for
the other components, and nothing unless kafka.tls or kafka.saslMechanism is set. The dispatcher's consumer
session timeout when kafka.sessionTimeoutMs is set.
(dict "ctx" $ "component" "ledger")
*/}}
{{- define "payouts.kafkaEnv" -}}
{{- $prefix := get (dict "ledger" "LEDGER" "webhooks" "WEBHOOKS") .component }}
{{- $kafka := .ctx.Values.kafka }}
{{- if $prefix }}
{{- if $kafka.tls }}
- name: KAFKA_TLS
  value: "true"
{{- end }}
{{- if $kafka.saslMechanism }}
- name: KAFKA_SASL_MECHANISM
  value: {{ $kafka.saslMechanism | quote }}
{{ include "payouts.secretEnv" (dict "ctx" .ctx "keys" (list (printf "KAFKA_SASL_USERNAME:%s_KAFKA_USERNAME" $prefix) (printf "KAFKA_SASL_PASSWORD:%s_KAFKA_PASSWORD" $prefix))) }}
{{- end }}
{{- if and (eq .component "webhooks") $kafka.sessionTimeoutMs }}
- name: KAFKA_SESSION_TIMEOUT_MS
  value: {{ int $kafka.sessionTimeoutMs | quote }}
{{- end }}
{{- end }}
{{- end }}
