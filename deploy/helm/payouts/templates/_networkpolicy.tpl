{{/*
Building blocks of the NetworkPolicies. Every chart pod is selected by exactly one policy with both
policy types, so any flow between components not listed in networkpolicy.yaml is denied.
*/}}

{{/* A peer: the pods of one component of this release. (dict "ctx" $ "component" "ledger") */}}
{{- define "payouts.np.pods" -}}
- podSelector:
    matchLabels:
      {{- include "payouts.selectorLabels" . | nindent 6 }}
{{- end }}

{{/* Egress rule: to one gRPC component on its serving port. */}}
{{- define "payouts.np.toGrpc" -}}
- to:
    {{- include "payouts.np.pods" . | nindent 4 }}
  ports:
    - protocol: TCP
      port: {{ (index .ctx.Values (include "payouts.valuesKey" .)).port }}
{{- end }}

{{/* Ingress rule: one gRPC component's port, from the given callers. (dict "ctx" $ "component" c "from" (list ...)) */}}
{{- define "payouts.np.grpcFrom" -}}
{{- $ctx := .ctx -}}
- from:
    {{- range .from }}
    {{- include "payouts.np.pods" (dict "ctx" $ctx "component" .) | nindent 4 }}
    {{- end }}
  ports:
    - protocol: TCP
      port: {{ (index $ctx.Values (include "payouts.valuesKey" .)).port }}
{{- end }}

{{/* A peer made of an optional namespaceSelector and a podSelector ({} = all pods); both must match. */}}
{{- define "payouts.np.selectorPeer" -}}
{{- $peer := dict "podSelector" (default (dict) .podSelector) }}
{{- with .namespaceSelector }}
{{- $_ := set $peer "namespaceSelector" . }}
{{- end }}
{{- list $peer | toYaml }}
{{- end }}

{{/* Ingress rule every pod has: Prometheus scraping the metrics port. */}}
{{- define "payouts.np.metricsIngress" -}}
- from:
    {{- include "payouts.np.selectorPeer" .Values.networkPolicy.prometheus | nindent 4 }}
  ports:
    - protocol: TCP
      port: {{ .Values.metrics.port }}
{{- end }}

{{/* Egress to a list of CIDRs on a list of TCP ports. (dict "cidrs" (list ...) "ports" (list ...)) */}}
{{- define "payouts.np.toCidrs" -}}
- to:
    {{- range .cidrs }}
    - ipBlock:
        cidr: {{ . }}
    {{- end }}
  ports:
    {{- range .ports }}
    - protocol: TCP
      port: {{ . }}
    {{- end }}
{{- end }}

{{/* Egress rules every pod has: DNS, the external PostgreSQL, and the operator's extra rules (OTLP collector). */}}
{{- define "payouts.np.baseEgress" -}}
{{- $np := .Values.networkPolicy }}
{{- $dns := dict "ports" (list (dict "protocol" "UDP" "port" $np.dns.port) (dict "protocol" "TCP" "port" $np.dns.port)) }}
{{- with $np.dns.to }}
{{- $_ := set $dns "to" . }}
{{- end }}
{{- list $dns | toYaml }}
{{ include "payouts.np.toCidrs" (dict "cidrs" $np.postgresql.cidrs "ports" (list $np.postgresql.port)) }}
{{- with $np.extraEgress }}
{{ toYaml . }}
{{- end }}
{{- end }}

{{/* Egress rule of the Kafka clients (ledger's outbox relay, webhooks service's consumer). */}}
{{- define "payouts.np.kafkaEgress" -}}
{{- $kafka := .Values.networkPolicy.kafka }}
{{- include "payouts.np.toCidrs" (dict "cidrs" $kafka.cidrs "ports" $kafka.ports) }}
{{- end }}

{{/* Metadata and pod selector of the policy for one component; "annotations" is optional. */}}
{{- define "payouts.np.head" -}}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "payouts.componentName" . }}
  namespace: {{ .ctx.Release.Namespace }}
  labels:
    {{- include "payouts.labels" . | nindent 4 }}
  {{- with .annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  podSelector:
    matchLabels:
      {{- include "payouts.selectorLabels" . | nindent 6 }}
  policyTypes:
    - Ingress
    - Egress
{{- end }}
