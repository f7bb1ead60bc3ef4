/**
 * The address every listener of a process binds to: `HOST`, else loopback. Outside Kubernetes nothing is
 * reachable from other machines unless the operator says so; the Helm chart and the image set
 * HOST=0.0.0.0, where the pod or container network is the boundary.
 */
export const DEFAULT_HOST = "127.0.0.1";

export function listenHost(env: Readonly<Record<string, string | undefined>>): string {
  const host = env.HOST?.trim();
  return host ? host : DEFAULT_HOST;
}

/**
 * Whether a listen address accepts only connections from this machine: 127.0.0.0/8, ::1 or `localhost`.
 * A wildcard (0.0.0.0, ::) or any other address is reachable from elsewhere.
 */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}
