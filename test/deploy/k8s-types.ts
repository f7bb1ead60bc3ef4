/**
 * The parts of Kubernetes objects the chart tests read. Rendered YAML is cast to these after a `kind`
 * check; fields the tests never look at are left out.
 */
export interface Metadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: Metadata;
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
}

export interface Probe {
  grpc?: { port: number; service?: string };
  httpGet?: { path: string; port: string | number };
}

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

export interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  privileged?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type: string };
}

export interface Container {
  name: string;
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  securityContext?: SecurityContext;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[];
}

export interface PodTemplate {
  metadata: Metadata;
  spec: {
    containers: Container[];
    securityContext?: SecurityContext;
    automountServiceAccountToken?: boolean;
    volumes?: { name: string; emptyDir?: Record<string, unknown>; secret?: { secretName: string } }[];
  };
}

export interface Deployment extends Manifest {
  spec: { replicas?: number; selector: LabelSelector; template: PodTemplate };
}

export interface Job extends Manifest {
  spec: { template: PodTemplate };
}

export interface ServicePort {
  name: string;
  port: number;
  targetPort: string | number;
  appProtocol?: string;
}

export interface Service extends Manifest {
  spec: { type?: string; selector: Record<string, string>; ports: ServicePort[] };
}

export interface Ingress extends Manifest {
  spec: {
    tls?: { secretName: string; hosts: string[] }[];
    rules: {
      host: string;
      http: { paths: { backend: { service: { name: string; port: { name?: string; number?: number } } } }[] };
    }[];
  };
}

export interface PodDisruptionBudget extends Manifest {
  spec: { selector: LabelSelector; maxUnavailable?: number | string; minAvailable?: number | string };
}

export interface HorizontalPodAutoscaler extends Manifest {
  spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number; maxReplicas: number };
}

export interface NetworkPolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

export interface NetworkPolicyRule {
  from?: NetworkPolicyPeer[];
  to?: NetworkPolicyPeer[];
  ports?: { protocol?: string; port: number }[];
}

export interface NetworkPolicy extends Manifest {
  spec: {
    podSelector: LabelSelector;
    policyTypes: string[];
    ingress?: NetworkPolicyRule[];
    egress?: NetworkPolicyRule[];
  };
}

export interface ConfigMap extends Manifest {
  data: Record<string, string>;
}

export interface Secret extends Manifest {
  stringData?: Record<string, string>;
  data?: Record<string, string>;
}
