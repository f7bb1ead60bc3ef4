{{/*
Deployment and Service of one gRPC component (lookup, pricing, ledger, webhooks,
sandbox-rail). Each <component>-deployment.yaml / <component>-service.yaml calls these with
(dict "ctx" $ "component" "<component>" "secretKeys" (list ...)); secretKeys lists the Secret entries
the process reads, so a service only sees the credentials it needs.
*/}}

{{/*
Startup, readiness and liveness against grpc.health.v1.Health on the serving port (the kubelet's
native gRPC probe speaks h2c). The startup probe holds liveness off until the process has connected to
PostgreSQL and Kafka, so a slow dependency at boot does not restart-loop the pod.
*/}}
{{- define "payouts.grpcProbes" -}}
{{- $probes := .ctx.Values.probes -}}
startupProbe:
  grpc:
    port: {{ .port }}
  {{- include "payouts.probeTiming" $probes.startup | nindent 2 }}
readinessProbe:
  grpc:
    port: {{ .port }}
  {{- include "payouts.probeTiming" $probes.readiness | nindent 2 }}
livenessProbe:
  grpc:
    port: {{ .port }}
  {{- include "payouts.probeTiming" $probes.liveness | nindent 2 }}
{{- end }}

{{- define "payouts.grpcDeployment" -}}
{{- $ctx := .ctx }}
{{- $values := index .ctx.Values (include "payouts.valuesKey" .) }}
{{- $autoscaled := and $values.autoscaling $values.autoscaling.enabled }}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "payouts.componentName" . }}
  namespace: {{ $ctx.Release.Namespace }}
  labels:
    {{- include "payouts.labels" . | nindent 4 }}
spec:
  {{- if not $autoscaled }}
  replicas: {{ $values.replicaCount }}
  {{- end }}
  revisionHistoryLimit: {{ $ctx.Values.revisionHistoryLimit }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxSurge: 25%
      maxUnavailable: 0
  selector:
    matchLabels:
      {{- include "payouts.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      {{- include "payouts.podMetadata" (dict "ctx" $ctx "component" .component "values" $values) | nindent 6 }}
    spec:
      {{- include "payouts.podSpecCommon" . | nindent 6 }}
      containers:
        - name: {{ .component }}
          {{- include "payouts.containerCommon" . | nindent 10 }}
          ports:
            - name: grpc
              containerPort: {{ $values.port }}
              protocol: TCP
            - name: metrics
              containerPort: {{ $ctx.Values.metrics.port }}
              protocol: TCP
            {{- if $ctx.Values.tls.enabled }}
            # Plaintext grpc.health.v1 only, for the probes (the gRPC port requires a client certificate).
            - name: health
              containerPort: {{ $ctx.Values.tls.healthPort }}
              protocol: TCP
            {{- end }}
          env:
            {{- include "payouts.secretEnv" (dict "ctx" $ctx "keys" .secretKeys) | nindent 12 }}
            {{- include "payouts.databaseEnv" . | nindent 12 }}
            {{- include "payouts.processEnv" (dict "component" .component "port" $values.port "values" $values) | nindent 12 }}
            {{- with include "payouts.kafkaEnv" (dict "ctx" $ctx "component" .component) | trim }}
            {{- . | nindent 12 }}
            {{- end }}
          {{- include "payouts.grpcProbes" (dict "ctx" $ctx "port" (ternary $ctx.Values.tls.healthPort $values.port $ctx.Values.tls.enabled)) | nindent 10 }}
          resources:
            {{- toYaml $values.resources | nindent 12 }}
{{- end }}

{{- define "payouts.grpcService" -}}
{{- $values := index .ctx.Values (include "payouts.valuesKey" .) }}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "payouts.componentName" . }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "payouts.labels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "payouts.selectorLabels" . | nindent 4 }}
  ports:
    - name: grpc
      port: {{ $values.port }}
      targetPort: grpc
      protocol: TCP
      {{- if not .ctx.Values.tls.enabled }}
      # Plain-text HTTP/2, so meshes and L7 load balancers treat the port as gRPC, not HTTP/1.1.
      appProtocol: kubernetes.io/h2c
      {{- end }}
    - name: metrics
      port: {{ .ctx.Values.metrics.port }}
      targetPort: metrics
      protocol: TCP
      appProtocol: http
{{- end }}
