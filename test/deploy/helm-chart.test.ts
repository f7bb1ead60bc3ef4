import { parseCallerKeys, parsePrivateKeys } from "@payouts/platform/rpc/service-credentials";
import { describe, expect, it } from "vitest";
import type {
  ConfigMap,
  Container,
  Deployment,
  EnvVar,
  HorizontalPodAutoscaler,
  Ingress,
  Job,
  Manifest,
  NetworkPolicy,
  PodDisruptionBudget,
  PodTemplate,
  Secret,
  Service,
} from "./k8s-types.js";
import { helmTemplate, ofKind, releaseName, renderChart, selects, valuesArgs } from "./render-chart.js";

// Properties schema validation cannot see: probes, resources, hardening, PDB coverage, hook wiring,
// network flows and where secrets come from. deploy/helm/validate.sh covers lint and schemas.

const grpcPorts: Record<string, number> = {
  lookup: 50051,
  pricing: 50052,
  ledger: 50053,
  webhooks: 50054,
  "sandbox-rail": 50055,
};
const components = ["gateway", ...Object.keys(grpcPorts)];

const renders = {
  ci: renderChart(["ci-values.yaml"]),
  production: renderChart(["production-values.yaml"]),
};
const cases = Object.entries(renders);

function component(m: Manifest): string | undefined {
  return m.metadata.labels?.["app.kubernetes.io/component"];
}

function deploymentOf(manifests: Manifest[], name: string): Deployment {
  const found = ofKind<Deployment>(manifests, "Deployment").find((d) => component(d) === name);
  if (found === undefined) throw new Error(`no Deployment for ${name}`);
  return found;
}

function pods(manifests: Manifest[]): PodTemplate[] {
  return [
    ...ofKind<Deployment>(manifests, "Deployment").map((d) => d.spec.template),
    ...ofKind<Job>(manifests, "Job").map((j) => j.spec.template),
  ];
}

function containerPort(container: Container, name: string): number | undefined {
  return container.ports?.find((p) => p.name === name)?.containerPort;
}

function secretRefs(manifests: Manifest[]): EnvVar[] {
  return pods(manifests)
    .flatMap((p) => p.spec.containers.flatMap((c) => c.env ?? []))
    .filter((e) => e.valueFrom);
}

describe.each(cases)("workloads (%s values)", (_name, manifests) => {
  const deployments = ofKind<Deployment>(manifests, "Deployment");

  it("renders one Deployment per process, each running its role", () => {
    expect(deployments.map(component).sort()).toEqual([...components].sort());
    for (const d of deployments) {
      expect(d.spec.template.spec.containers.map((c) => c.args)).toEqual([[component(d)]]);
    }
  });

  it("gives every container readiness, liveness and startup probes and resources", () => {
    for (const c of deployments.flatMap((d) => d.spec.template.spec.containers)) {
      expect(c.readinessProbe, c.name).toBeDefined();
      expect(c.livenessProbe, c.name).toBeDefined();
      expect(c.startupProbe, c.name).toBeDefined();
    }
    for (const c of pods(manifests).flatMap((p) => p.spec.containers)) {
      expect(c.resources?.requests, c.name).toMatchObject({
        cpu: expect.any(String),
        memory: expect.any(String),
      });
      expect(c.resources?.limits?.memory, c.name).toEqual(expect.any(String));
    }
  });

  it.each(Object.entries(grpcPorts))("probes %s with native gRPC on its serving port", (name, port) => {
    const [container] = deploymentOf(manifests, name).spec.template.spec.containers;
    expect(containerPort(container!, "grpc")).toBe(port);
    for (const probe of [container!.readinessProbe, container!.livenessProbe, container!.startupProbe]) {
      expect(probe).toEqual(expect.objectContaining({ grpc: { port } }));
      expect(probe?.httpGet).toBeUndefined();
    }
  });

  it("probes the gateway over HTTP on the admin listener", () => {
    const [gateway] = deploymentOf(manifests, "gateway").spec.template.spec.containers;
    expect(containerPort(gateway!, "admin")).toBe(8081);
    expect(containerPort(gateway!, "http")).toBe(8080);
    expect(gateway!.readinessProbe?.httpGet).toEqual({ path: "/readyz", port: "admin" });
    expect(gateway!.livenessProbe?.httpGet).toEqual({ path: "/healthz", port: "admin" });
  });

  it("names gRPC Service ports grpc with the h2c app protocol", () => {
    const services = ofKind<Service>(manifests, "Service");
    for (const [name, port] of Object.entries(grpcPorts)) {
      const service = services.find((s) => s.metadata.name === `${releaseName}-${name}`);
      expect(service?.spec.ports).toContainEqual({
        name: "grpc",
        port,
        targetPort: "grpc",
        protocol: "TCP",
        appProtocol: "kubernetes.io/h2c",
      });
    }
  });

  it("serves metrics on 9464 from every process", () => {
    for (const d of deployments) {
      expect(containerPort(d.spec.template.spec.containers[0]!, "metrics"), component(d)).toBe(9464);
    }
  });
});

describe.each(cases)("hardening (%s values)", (_name, manifests) => {
  it("runs every pod as non-root with seccomp and no service account token", () => {
    for (const pod of pods(manifests)) {
      expect(pod.spec.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 10001,
        seccompProfile: { type: "RuntimeDefault" },
      });
      expect(pod.spec.automountServiceAccountToken).toBe(false);
    }
  });

  it("locks down every container and gives it a writable /tmp only", () => {
    for (const pod of pods(manifests)) {
      expect(pod.spec.volumes).toContainEqual({ name: "tmp", emptyDir: expect.any(Object) });
      for (const c of pod.spec.containers) {
        expect(c.securityContext, c.name).toMatchObject({
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ["ALL"] },
        });
        expect(c.securityContext?.capabilities?.add).toBeUndefined();
        expect(c.volumeMounts).toEqual([{ name: "tmp", mountPath: "/tmp" }]);
      }
    }
  });

  it("puts the standard labels on every object", () => {
    for (const m of manifests) {
      expect(m.metadata.labels, `${m.kind}/${m.metadata.name}`).toMatchObject({
        "app.kubernetes.io/name": "payouts",
        "app.kubernetes.io/instance": releaseName,
        "app.kubernetes.io/version": expect.any(String),
        "app.kubernetes.io/managed-by": "Helm",
        "helm.sh/chart": expect.stringMatching(/^payouts-/),
      });
    }
  });

  it("gives every Deployment exactly one PodDisruptionBudget selecting its pods", () => {
    const budgets = ofKind<PodDisruptionBudget>(manifests, "PodDisruptionBudget");
    for (const d of ofKind<Deployment>(manifests, "Deployment")) {
      const covering = budgets.filter((b) => selects(b.spec.selector, d.spec.template.metadata.labels));
      expect(covering, d.metadata.name).toHaveLength(1);
      expect(covering[0]?.spec.maxUnavailable).toBeDefined();
    }
  });
});

describe.each(cases)("migrations (%s values)", (_name, manifests) => {
  const [job] = ofKind<Job>(manifests, "Job");

  it("runs migrate once as a pre-install/pre-upgrade hook", () => {
    expect(job?.metadata.annotations).toMatchObject({
      "helm.sh/hook": "pre-install,pre-upgrade",
      "helm.sh/hook-delete-policy": expect.stringContaining("before-hook-creation"),
    });
    expect(job?.spec.template.spec.containers.map((c) => c.args)).toEqual([["migrate"]]);
  });

  it("creates every hook resource it depends on before the Job", () => {
    const jobWeight = Number(job?.metadata.annotations?.["helm.sh/hook-weight"]);
    const hooks = manifests.filter((m) => m !== job && m.metadata.annotations?.["helm.sh/hook"]);
    expect(hooks.map((h) => h.kind)).toContain("NetworkPolicy");
    for (const hook of hooks) {
      expect(Number(hook.metadata.annotations?.["helm.sh/hook-weight"])).toBeLessThan(jobWeight);
      expect(hook.metadata.annotations?.["helm.sh/hook"]).toBe("pre-install,pre-upgrade");
    }
  });
});

/** Each Deployment's own database role's variable (the key of secrets.existingSecret it reads). */
const DATABASE_URL_OF: Record<string, string> = {
  gateway: "GATEWAY_DATABASE_URL",
  lookup: "LOOKUP_DATABASE_URL",
  pricing: "PRICING_DATABASE_URL",
  ledger: "LEDGER_DATABASE_URL",
  webhooks: "WEBHOOKS_DATABASE_URL",
  "sandbox-rail": "SANDBOX_RAIL_DATABASE_URL",
};
const DATABASE_URL_KEYS = Object.values(DATABASE_URL_OF);

describe("secrets", () => {
  it("renders the chart's Secret and a hook Secret for migrations from inline values", () => {
    const secrets = ofKind<Secret>(renders.ci, "Secret");
    const main = secrets.find((s) => s.metadata.name === releaseName);
    expect(Object.keys(main?.stringData ?? {}).sort()).toEqual([
      "ADMIN_TOKEN",
      "EVENT_SIGNING_KEY",
      "EVENT_VERIFY_KEYS",
      "GATEWAY_SERVICE_PRIVATE_KEYS",
      "LEDGER_SERVICE_PRIVATE_KEYS",
      "RAIL_CALLBACK_SECRET",
      "SERVICE_CALLER_KEYS",
      "WEBHOOK_SECRET_KEY",
    ]);
    const hook = secrets.find((s) => s.metadata.annotations?.["helm.sh/hook"]);
    expect(Object.keys(hook?.stringData ?? {}).sort()).toEqual(["DATABASE_URL", ...DATABASE_URL_KEYS].sort());
  });

  it("gives each Deployment its own database role in a Secret of its own, never the migration role", () => {
    const secrets = ofKind<Secret>(renders.ci, "Secret");
    const hook = secrets.find((s) => s.metadata.annotations?.["helm.sh/hook"]);
    const migrationUser = new URL(hook?.stringData?.DATABASE_URL ?? "").username;
    const users = new Set<string>();
    for (const [name, key] of Object.entries(DATABASE_URL_OF)) {
      const env = deploymentOf(renders.ci, name).spec.template.spec.containers[0]?.env ?? [];
      const ref = env.find((e) => e.name === "DATABASE_URL")?.valueFrom?.secretKeyRef;
      expect(ref?.name, name).toBe(`${releaseName}-${name}-database`);
      const url = secrets.find((s) => s.metadata.name === ref?.name)?.stringData?.DATABASE_URL ?? "";
      const user = new URL(url).username;
      expect(user, name).toBe(`payouts_${key.replace("_DATABASE_URL", "").toLowerCase()}`);
      expect(user).not.toBe(migrationUser);
      expect(new URL(url).password.length, name).toBeGreaterThanOrEqual(32);
      // migrate creates the role from the very URL the Deployment gets.
      expect(hook?.stringData?.[key], name).toBe(url);
      // Only this Deployment mounts the Secret.
      const readers = ofKind<Deployment>(renders.ci, "Deployment").filter((d) =>
        JSON.stringify(d.spec.template.spec).includes(`"${ref?.name}"`),
      );
      expect(readers.map(component)).toEqual([name]);
      users.add(user);
    }
    expect(users.size).toBe(6);
    const job = ofKind<Job>(renders.ci, "Job")[0];
    const jobEnv = job?.spec.template.spec.containers[0]?.env?.map((e) => e.name) ?? [];
    expect(jobEnv).toEqual(expect.arrayContaining(["DATABASE_URL", ...DATABASE_URL_KEYS]));
    for (const [name, key] of Object.entries(DATABASE_URL_OF)) {
      const env = deploymentOf(renders.production, name).spec.template.spec.containers[0]?.env ?? [];
      const ref = env.find((e) => e.name === "DATABASE_URL")?.valueFrom?.secretKeyRef;
      expect([ref?.name, ref?.key], name).toEqual(["payouts-credentials", key]);
    }
  });

  it("inlines nothing and reads every credential from existingSecret when it is set", () => {
    expect(ofKind(renders.production, "Secret")).toEqual([]);
    const refs = secretRefs(renders.production);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(ref.valueFrom?.secretKeyRef?.name).toBe("payouts-credentials");
    const text = JSON.stringify(renders.production);
    expect(text).not.toMatch(/postgres(ql)?:\/\//);
  });

  it("enables no static admin token unless secrets.adminToken is set, and maps the OIDC values", () => {
    const manifests = renderChart(
      ["ci-values.yaml"],
      [
        "secrets.adminToken=",
        "gateway.oidc.issuer=https://idp.example.com",
        "gateway.oidc.clientId=payouts",
        "gateway.oidc.roleMap=ops-admins=admin",
      ],
    );
    const main = ofKind<Secret>(manifests, "Secret").find((s) => s.metadata.name === releaseName);
    expect(Object.keys(main?.stringData ?? {})).not.toContain("ADMIN_TOKEN");
    const env = deploymentOf(manifests, "gateway").spec.template.spec.containers[0]?.env ?? [];
    expect(env.map((e) => e.name)).not.toContain("ADMIN_TOKEN");
    const value = (name: string) => env.find((e) => e.name === name)?.value;
    expect(value("ADMIN_TOKEN_ROLE")).toBe("admin");
    expect(value("OIDC_ISSUER")).toBe("https://idp.example.com");
    expect(value("OIDC_ROLE_MAP")).toBe("ops-admins=admin");
    expect(value("OIDC_ROLE_CLAIM")).toBe("groups");
  });

  it("hands each process only the credentials it needs", () => {
    const keysOf = (name: string) =>
      (deploymentOf(renders.ci, name).spec.template.spec.containers[0]?.env ?? [])
        .flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.key] : []))
        .sort();
    expect(keysOf("gateway")).toEqual([
      "ADMIN_TOKEN",
      "DATABASE_URL",
      "GATEWAY_SERVICE_PRIVATE_KEYS",
      "RAIL_CALLBACK_SECRET",
    ]);
    expect(keysOf("sandbox-rail")).toEqual(["DATABASE_URL", "RAIL_CALLBACK_SECRET", "SERVICE_CALLER_KEYS"]);
    expect(keysOf("ledger")).toEqual([
      "DATABASE_URL",
      "EVENT_SIGNING_KEY",
      "LEDGER_SERVICE_PRIVATE_KEYS",
      "SERVICE_CALLER_KEYS",
    ]);
    expect(keysOf("webhooks")).toEqual([
      "DATABASE_URL",
      "EVENT_VERIFY_KEYS",
      "SERVICE_CALLER_KEYS",
      "WEBHOOK_SECRET_KEY",
    ]);
    for (const name of ["lookup", "pricing"]) {
      expect(keysOf(name), name).toEqual(["DATABASE_URL", "SERVICE_CALLER_KEYS"]);
    }
  });

  it("gives the webhooks service WEBHOOK_SECRET_KEY from the Secret, in both install styles", () => {
    for (const manifests of [renders.ci, renders.production]) {
      const env = deploymentOf(manifests, "webhooks").spec.template.spec.containers[0]?.env ?? [];
      const key = env.find((e) => e.name === "WEBHOOK_SECRET_KEY");
      expect(key?.valueFrom?.secretKeyRef?.key).toBe("WEBHOOK_SECRET_KEY");
    }
    const main = ofKind<Secret>(renders.ci, "Secret").find((s) => s.metadata.name === releaseName);
    expect(main?.stringData?.WEBHOOK_SECRET_KEY).toBe("Y2ktb25seS13ZWJob29rLXNlYWxpbmcta2V5LTMyYnk=");
  });

  it("gives the webhooks service's consumer the session timeout of kafka.sessionTimeoutMs", () => {
    const manifests = renderChart(["ci-values.yaml"], ["kafka.sessionTimeoutMs=3000"]);
    const env = (name: string) => deploymentOf(manifests, name).spec.template.spec.containers[0]?.env ?? [];
    expect(env("webhooks").find((e) => e.name === "KAFKA_SESSION_TIMEOUT_MS")?.value).toBe("3000");
    expect(env("ledger").some((e) => e.name === "KAFKA_SESSION_TIMEOUT_MS")).toBe(false);
  });

  it("gives the ledger and the webhooks service each its own Kafka user, TLS and SASL when asked", () => {
    const manifests = renderChart(
      ["ci-values.yaml"],
      [
        "kafka.tls=true",
        "kafka.saslMechanism=scram-sha-512",
        "secrets.kafka.ledger.username=ledger-user",
        "secrets.kafka.ledger.password=ledger-password",
        "secrets.kafka.webhooks.username=webhooks-user",
        "secrets.kafka.webhooks.password=webhooks-password",
      ],
    );
    const kafkaEnv = (name: string) =>
      (deploymentOf(manifests, name).spec.template.spec.containers[0]?.env ?? [])
        .filter((e) => e.name.startsWith("KAFKA_"))
        .map((e) => [e.name, e.value ?? `secret:${e.valueFrom?.secretKeyRef?.key}`]);
    expect(kafkaEnv("ledger")).toEqual([
      ["KAFKA_TLS", "true"],
      ["KAFKA_SASL_MECHANISM", "scram-sha-512"],
      ["KAFKA_SASL_USERNAME", "secret:LEDGER_KAFKA_USERNAME"],
      ["KAFKA_SASL_PASSWORD", "secret:LEDGER_KAFKA_PASSWORD"],
    ]);
    expect(kafkaEnv("webhooks")).toEqual([
      ["KAFKA_TLS", "true"],
      ["KAFKA_SASL_MECHANISM", "scram-sha-512"],
      ["KAFKA_SASL_USERNAME", "secret:WEBHOOKS_KAFKA_USERNAME"],
      ["KAFKA_SASL_PASSWORD", "secret:WEBHOOKS_KAFKA_PASSWORD"],
    ]);
    for (const name of ["gateway", "lookup", "pricing", "sandbox-rail"])
      expect(kafkaEnv(name), name).toEqual([]);
    const data = ofKind<Secret>(manifests, "Secret").find((s) => s.metadata.name === releaseName)?.stringData;
    expect(data?.LEDGER_KAFKA_PASSWORD).toBe("ledger-password");
    expect(data?.WEBHOOKS_KAFKA_USERNAME).toBe("webhooks-user");
    // Off by default: no Kafka credentials anywhere.
    expect(JSON.stringify(renders.ci)).not.toContain("KAFKA_SASL");
    expect(JSON.stringify(renders.ci)).not.toContain("KAFKA_SESSION_TIMEOUT_MS");
  });

  it("gives each caller process only its own private keys, every server the callers' public keys", () => {
    const data = ofKind<Secret>(renders.ci, "Secret").find(
      (s) => s.metadata.name === releaseName,
    )?.stringData;
    const callersOf = (list: string | undefined) => (list ?? "").split(",").map((e) => e.split(":")[0]);
    expect(callersOf(data?.GATEWAY_SERVICE_PRIVATE_KEYS)).toEqual([
      "gateway",
      "gateway-admin",
      "gateway-rail",
    ]);
    expect(callersOf(data?.LEDGER_SERVICE_PRIVATE_KEYS)).toEqual(["ledger"]);
    expect(callersOf(data?.SERVICE_CALLER_KEYS)).toEqual([
      "gateway",
      "gateway-admin",
      "gateway-rail",
      "ledger",
    ]);
    // The values are what the services parse: a key pair per caller.
    expect(parsePrivateKeys(data?.GATEWAY_SERVICE_PRIVATE_KEYS ?? "").size).toBe(3);
    expect(parseCallerKeys(data?.SERVICE_CALLER_KEYS ?? "").size).toBe(4);
    const envVar = (name: string, variable: string) =>
      deploymentOf(renders.ci, name).spec.template.spec.containers[0]?.env?.find((e) => e.name === variable);
    expect(envVar("gateway", "SERVICE_PRIVATE_KEYS")?.valueFrom?.secretKeyRef?.key).toBe(
      "GATEWAY_SERVICE_PRIVATE_KEYS",
    );
    expect(envVar("ledger", "SERVICE_PRIVATE_KEYS")?.valueFrom?.secretKeyRef?.key).toBe(
      "LEDGER_SERVICE_PRIVATE_KEYS",
    );
    expect(envVar("gateway", "SERVICE_CALLER_KEYS")).toBeUndefined();
    for (const name of ["lookup", "pricing", "webhooks", "sandbox-rail"]) {
      expect(envVar(name, "SERVICE_PRIVATE_KEYS"), name).toBeUndefined();
      expect(envVar(name, "SERVICE_CALLER_KEYS")?.valueFrom?.secretKeyRef?.key, name).toBe(
        "SERVICE_CALLER_KEYS",
      );
    }
  });
});

describe("configuration", () => {
  const [config] = ofKind<ConfigMap>(renders.ci, "ConfigMap");

  it("points every *_ADDR at the component's Service and gRPC port", () => {
    const addrs: Record<string, string> = {
      LOOKUP_ADDR: "lookup",
      PRICING_ADDR: "pricing",
      LEDGER_ADDR: "ledger",
      WEBHOOKS_ADDR: "webhooks",
      RAIL_ADDR: "sandbox-rail",
    };
    for (const [env, name] of Object.entries(addrs)) {
      expect(config?.data[env]).toBe(`http://${releaseName}-${name}:${grpcPorts[name]}`);
    }
    expect(config?.data.RAIL_CALLBACK_URL).toBe(`http://${releaseName}-gateway:8080/callbacks/rail`);
  });

  it("refuses private webhook receivers", () => {
    expect(config?.data.WEBHOOK_ALLOW_PRIVATE_URLS).toBe("false");
  });

  it("runs every process in production mode, listening on every pod interface", () => {
    expect(config?.data.NODE_ENV).toBe("production");
    expect(config?.data.HOST).toBe("0.0.0.0");
  });

  it.each([
    { sets: ["ingress.enabled=true", "ingress.hosts={api.example.com}"], hops: "1" },
    { sets: ["ingress.enabled=false"], hops: "0" },
    {
      sets: ["ingress.enabled=true", "ingress.hosts={api.example.com}", "gateway.trustProxyHops=2"],
      hops: "2",
    },
  ])("tells the gateway how many proxies append to X-Forwarded-For ($sets)", ({ sets, hops }) => {
    const gateway = deploymentOf(renderChart(["ci-values.yaml"], sets), "gateway");
    const env = gateway.spec.template.spec.containers[0]?.env ?? [];
    expect(env.find((e) => e.name === "TRUST_PROXY_HOPS")?.value).toBe(hops);
  });

  it.each([
    { sets: [], ports: [443] },
    { sets: ["networkPolicy.webhookEgress.ports={443,8443}"], ports: [443, 8443] },
  ])(
    "allows webhook receivers on exactly the ports the NetworkPolicy lets out ($ports)",
    ({ sets, ports }) => {
      const manifests = renderChart(["ci-values.yaml"], sets);
      const [configMap] = ofKind<ConfigMap>(manifests, "ConfigMap");
      expect(configMap?.data.WEBHOOK_ALLOWED_PORTS).toBe(ports.join(","));
      const policy = ofKind<NetworkPolicy>(manifests, "NetworkPolicy").find(
        (p) => p.spec.podSelector.matchLabels?.["app.kubernetes.io/component"] === "webhooks",
      );
      const internetRule = (policy?.spec.egress ?? []).find((r) =>
        (r.to ?? []).some((peer) => peer.ipBlock?.cidr === "0.0.0.0/0"),
      );
      expect(internetRule?.ports?.map((p) => p.port)).toEqual(ports);
    },
  );
});

describe("mutual TLS between the services (tls.enabled)", () => {
  const manifests = renderChart(
    ["ci-values.yaml"],
    ["tls.enabled=true", "tls.existingSecret=payouts-grpc-tls"],
  );
  const [configMap] = ofKind<ConfigMap>(manifests, "ConfigMap");

  it("makes every *_ADDR https and names the mounted certificate files", () => {
    for (const name of ["LOOKUP_ADDR", "PRICING_ADDR", "LEDGER_ADDR", "WEBHOOKS_ADDR", "RAIL_ADDR"]) {
      expect(configMap?.data[name]).toMatch(/^https:\/\//);
    }
    expect(configMap?.data).toMatchObject({
      GRPC_TLS_CA_FILE: "/etc/payouts/grpc-tls/ca.crt",
      GRPC_TLS_CERT_FILE: "/etc/payouts/grpc-tls/tls.crt",
      GRPC_TLS_KEY_FILE: "/etc/payouts/grpc-tls/tls.key",
      GRPC_HEALTH_PORT: "8086",
    });
  });

  it("mounts the Secret read-only in every process, callers and servers alike", () => {
    for (const d of ofKind<Deployment>(manifests, "Deployment")) {
      const volume = d.spec.template.spec.volumes?.find((v) => v.name === "grpc-tls");
      expect(volume?.secret?.secretName, d.metadata.name).toBe("payouts-grpc-tls");
      const mount = d.spec.template.spec.containers[0]?.volumeMounts?.find((m) => m.name === "grpc-tls");
      expect(mount, d.metadata.name).toMatchObject({ mountPath: "/etc/payouts/grpc-tls", readOnly: true });
    }
  });

  it.each(Object.keys(grpcPorts))("probes %s on the plaintext health port", (name) => {
    const [container] = deploymentOf(manifests, name).spec.template.spec.containers;
    expect(containerPort(container!, "health")).toBe(8086);
    for (const probe of [container!.readinessProbe, container!.livenessProbe, container!.startupProbe]) {
      expect(probe).toEqual(expect.objectContaining({ grpc: { port: 8086 } }));
    }
  });

  it("is off by default: plaintext addresses, no certificate volume", () => {
    const [plain] = ofKind<ConfigMap>(renders.ci, "ConfigMap");
    expect(plain?.data.LEDGER_ADDR).toMatch(/^http:\/\//);
    expect(plain?.data.GRPC_TLS_CA_FILE).toBeUndefined();
    for (const d of ofKind<Deployment>(renders.ci, "Deployment")) {
      expect(d.spec.template.spec.volumes?.map((v) => v.name)).not.toContain("grpc-tls");
    }
  });
});

describe("exposure", () => {
  const [ingress] = ofKind<Ingress>(renders.production, "Ingress");

  it("renders no Ingress unless enabled", () => {
    expect(ofKind(renders.ci, "Ingress")).toEqual([]);
    expect(ingress?.spec.tls?.[0]?.secretName).toBe("payouts-api-tls");
  });

  it("routes the Ingress only to the partner listener, never to the admin port", () => {
    const services = ofKind<Service>(renders.production, "Service");
    const backends = ingress?.spec.rules.flatMap((r) => r.http.paths.map((p) => p.backend.service)) ?? [];
    expect(backends.length).toBeGreaterThan(0);
    for (const backend of backends) {
      const service = services.find((s) => s.metadata.name === backend.name);
      const port = service?.spec.ports.find(
        (p) => p.name === backend.port.name || p.port === backend.port.number,
      );
      expect(port?.targetPort).toBe("http");
      expect(service?.spec.ports.map((p) => p.targetPort)).not.toContain("admin");
      expect(service?.spec.ports.map((p) => p.port)).not.toContain(8081);
    }
  });

  it("keeps the admin Service internal", () => {
    const admin = ofKind<Service>(renders.production, "Service").find((s) =>
      s.spec.ports.some((p) => p.targetPort === "admin"),
    );
    expect(admin?.spec.type).toBe("ClusterIP");
  });

  it("autoscales every component but the sandbox rail and drops fixed replicas there", () => {
    const hpas = ofKind<HorizontalPodAutoscaler>(renders.production, "HorizontalPodAutoscaler");
    const targets = hpas.map((h) => h.spec.scaleTargetRef.name).sort();
    expect(targets).toEqual(
      ["gateway", "ledger", "lookup", "pricing", "webhooks"].map((c) => `${releaseName}-${c}`),
    );
    for (const d of ofKind<Deployment>(renders.production, "Deployment")) {
      expect(d.spec.replicas === undefined, d.metadata.name).toBe(targets.includes(d.metadata.name));
    }
    expect(ofKind(renders.ci, "HorizontalPodAutoscaler")).toEqual([]);
  });
});

describe.each(cases)("network policies (%s values)", (_name, manifests) => {
  const policies = ofKind<NetworkPolicy>(manifests, "NetworkPolicy");
  const policyOf = (name: string): NetworkPolicy => {
    const found = policies.find(
      (p) => p.spec.podSelector.matchLabels?.["app.kubernetes.io/component"] === name,
    );
    if (found === undefined) throw new Error(`no NetworkPolicy for ${name}`);
    return found;
  };
  const callersOf = (name: string, port: number): (string | undefined)[] =>
    (policyOf(name).spec.ingress ?? [])
      .filter((rule) => rule.ports?.some((p) => p.port === port))
      .flatMap((rule) =>
        (rule.from ?? []).map((peer) => peer.podSelector?.matchLabels?.["app.kubernetes.io/component"]),
      );

  it("selects every pod with exactly one policy covering ingress and egress", () => {
    for (const pod of pods(manifests)) {
      const matching = policies.filter((p) => selects(p.spec.podSelector, pod.metadata.labels));
      expect(matching, pod.metadata.labels?.["app.kubernetes.io/component"]).toHaveLength(1);
      expect(matching[0]?.spec.policyTypes).toEqual(["Ingress", "Egress"]);
    }
  });

  it("lets only the listed callers reach each gRPC service", () => {
    expect(callersOf("lookup", 50051)).toEqual(["gateway"]);
    expect(callersOf("pricing", 50052)).toEqual(["gateway", "ledger"]);
    expect(callersOf("ledger", 50053)).toEqual(["gateway"]);
    expect(callersOf("webhooks", 50054)).toEqual(["gateway"]);
    expect(callersOf("sandbox-rail", 50055)).toEqual(["gateway", "ledger"]);
  });

  it("lets each component call out to the gRPC services it needs only", () => {
    const components = ["gateway", "lookup", "pricing", "ledger", "webhooks", "sandbox-rail"];
    const calleesOf = (name: string): string[] =>
      (policyOf(name).spec.egress ?? [])
        .flatMap((rule) =>
          (rule.to ?? []).map((peer) => peer.podSelector?.matchLabels?.["app.kubernetes.io/component"]),
        )
        .filter((c): c is string => c !== undefined && components.includes(c))
        .sort();
    expect(calleesOf("ledger")).toEqual(["pricing", "sandbox-rail"]);
    expect(calleesOf("lookup")).toEqual([]);
    expect(calleesOf("pricing")).toEqual([]);
    expect(calleesOf("webhooks")).toEqual([]);
    expect(calleesOf("sandbox-rail")).toEqual(["gateway"]);
  });

  it("opens the admin port to labelled operator tooling only", () => {
    const rules = (policyOf("gateway").spec.ingress ?? []).filter((r) =>
      r.ports?.some((p) => p.port === 8081),
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]?.ports).toEqual([{ protocol: "TCP", port: 8081 }]);
    for (const peer of rules[0]?.from ?? []) {
      expect(peer.podSelector?.matchLabels).toEqual({ "payouts-admin-client": "true" });
    }
  });

  it("lets the webhook dispatcher out to the internet but not to private or metadata ranges", () => {
    const blocks = (policyOf("webhooks").spec.egress ?? [])
      .filter((r) => r.ports?.some((p) => p.port === 443))
      .flatMap((r) => r.to ?? [])
      .flatMap((peer) => (peer.ipBlock ? [peer.ipBlock] : []));
    const ipv4 = blocks.find((b) => b.cidr === "0.0.0.0/0");
    expect(ipv4?.except).toEqual(expect.arrayContaining(["10.0.0.0/8", "169.254.0.0/16", "192.168.0.0/16"]));
  });

  it("gives Kafka egress to the ledger and the dispatcher only", () => {
    const kafkaPort = _name === "production" ? 9094 : 9092;
    const withKafka = policies
      .filter((p) => (p.spec.egress ?? []).some((r) => r.ports?.some((port) => port.port === kafkaPort)))
      .map((p) => p.spec.podSelector.matchLabels?.["app.kubernetes.io/component"])
      .sort();
    expect(withKafka).toEqual(["ledger", "webhooks"]);
  });
});

describe("values validation", () => {
  const ci = ["ci-values.yaml"];
  it.each([
    {
      problem: "no credentials and no existingSecret",
      files: [],
      sets: [],
      message: "postgresql.url is required",
    },
    {
      problem: "an inline credential beside existingSecret",
      files: ["production-values.yaml"],
      sets: ["secrets.adminToken=0123456789abcdef"],
      message: "secrets.adminToken is set together with secrets.existingSecret",
    },
    { problem: "a short admin token", files: ci, sets: ["secrets.adminToken=short"], message: "at least 16" },
    {
      problem: "an Ingress without hosts",
      files: ci,
      sets: ["ingress.enabled=true"],
      message: "ingress.hosts",
    },
    { problem: "a latest tag", files: ci, sets: ["image.tag=latest"], message: "not latest" },
    {
      problem: "no webhook sealing key",
      files: ci,
      sets: ["secrets.webhookSecretKey="],
      message: "secrets.webhookSecretKey is required",
    },
    {
      problem: "a webhook sealing key that is not 32 bytes",
      files: ci,
      sets: ["secrets.webhookSecretKey=0123456789abcdef"],
      message: "secrets.webhookSecretKey must be 32 bytes",
    },
    {
      problem: "an inline webhook sealing key beside existingSecret",
      files: ["production-values.yaml"],
      sets: ["secrets.webhookSecretKey=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"],
      message: "secrets.webhookSecretKey is set together with secrets.existingSecret",
    },
    {
      problem: "a missing service private key",
      files: ci,
      sets: ["secrets.serviceKeys.ledgerPrivateKeys="],
      message: "secrets.serviceKeys.ledgerPrivateKeys is required",
    },
    {
      problem: "no event signing key",
      files: ci,
      sets: ["secrets.eventSigningKey="],
      message: "secrets.eventSigningKey is required",
    },
    {
      problem: "an inline event verify key beside existingSecret",
      files: ["production-values.yaml"],
      sets: ["secrets.eventVerifyKeys=MCowBQYDK2VwAyEAWVKIHRQRL4/mffdPhI0LhdhOzZ0yGXJ/CHHzreHhtmk="],
      message: "secrets.eventVerifyKeys is set together with secrets.existingSecret",
    },
    {
      problem: "extra env replacing the event signing key",
      files: ci,
      sets: ["ledger.extraEnv.EVENT_SIGNING_KEY=x"],
      message: "EVENT_SIGNING_KEY is set by the chart",
    },
    {
      problem: "SASL without the Kafka users' credentials",
      files: ci,
      sets: ["kafka.saslMechanism=scram-sha-256"],
      message: "secrets.kafka.ledger.password is required with kafka.saslMechanism",
    },
    {
      problem: "an unknown SASL mechanism (schema)",
      files: ci,
      sets: ["kafka.saslMechanism=gssapi"],
      message: "saslMechanism",
    },
    {
      problem: "a malformed service private key (schema)",
      files: ci,
      sets: ["secrets.serviceKeys.ledgerPrivateKeys=ledger:short"],
      message: "ledgerPrivateKeys",
    },
    {
      problem: "public keys missing a caller",
      files: ci,
      sets: [`secrets.serviceKeys.callerPublicKeys=ledger:${"A".repeat(43)}`],
      message: 'has no public key for caller "gateway-admin"',
    },
    {
      problem: "a rail callback secret shorter than 32 bytes",
      files: ci,
      sets: ["secrets.railCallbackSecret=rail-secret"],
      message: "secrets.railCallbackSecret must be at least 32 bytes",
    },
    {
      problem: "extra env replacing a service's database URL",
      files: ci,
      sets: ["config.extraEnv.LEDGER_DATABASE_URL=postgres://x"],
      message: "LEDGER_DATABASE_URL is set by the chart",
    },
    {
      problem: "extra env replacing a credential",
      files: ci,
      sets: ["config.extraEnv.SERVICE_CALLER_KEYS=x"],
      message: "SERVICE_CALLER_KEYS is set by the chart",
    },
    {
      problem: "the admin port on the partner port",
      files: ci,
      sets: ["gateway.adminPort=8080"],
      message: "must differ",
    },
    {
      problem: "mutual TLS without a certificate Secret",
      files: ci,
      sets: ["tls.enabled=true"],
      message: "tls.existingSecret is required",
    },
    { problem: "an unknown key (schema)", files: ci, sets: ["gatway.port=1"], message: "gatway" },
    {
      problem: "a container allowed to escalate (schema)",
      files: ci,
      sets: ["containerSecurityContext.allowPrivilegeEscalation=true"],
      message: "allowPrivilegeEscalation",
    },
  ])("refuses $problem", ({ files, sets, message }) => {
    const result = helmTemplate(valuesArgs(files, sets));
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(message);
  });

  it("lists every problem in one failure", () => {
    const result = helmTemplate([]);
    for (const key of [
      "postgresql.url",
      "secrets.railCallbackSecret",
      "secrets.webhookSecretKey",
      "secrets.serviceKeys.gatewayPrivateKeys",
      "kafka.brokers",
    ]) {
      expect(result.stderr).toContain(key);
    }
  });
});
