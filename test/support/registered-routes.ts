import type { FastifyInstance } from "fastify";

/** `METHOD /path/{param}` for every route the fastify instance has (HEAD is fastify's own twin of GET). */
export function registeredRoutes(app: FastifyInstance): string[] {
  const prefixes: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^([│ ]*)[└├]── (.*?)(?: \(([^)]*)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? "").length / 4;
    prefixes.length = depth;
    const parent = prefixes[depth - 1] ?? "";
    const segment = match[2] ?? "";
    // A wildcard child prints as `*` under `/prefix` (the slash between them is the tree's, not shown).
    const path = parent + (segment.startsWith("*") && !parent.endsWith("/") ? "/" : "") + segment;
    prefixes[depth] = path;
    for (const method of (match[3] ?? "").split(", ")) {
      if (method !== "" && method !== "HEAD") routes.push(`${method} ${path.replace(/:(\w+)/g, "{$1}")}`);
    }
  }
  return routes.sort();
}
