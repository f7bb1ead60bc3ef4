import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import FindMyWay from "find-my-way";
import { ApiError } from "./api-error.js";

/**
 * Answers every request no route takes before anything else runs: 405 with `Allow` when the path exists
 * under other methods, 404 otherwise, both with the stable error body. Answering in `onRequest` means no
 * authentication and no body parsing for such a request: a method Fastify reads a body for but nothing
 * here declares (QUERY without a Content-Type, say) is refused as unknown instead of failing the parser.
 *
 * The paths are matched with find-my-way, the router Fastify itself uses, so "this path exists" agrees
 * with Fastify's own routing.
 */
export function answerUnroutedRequests(app: FastifyInstance, answer: RefusalSender): void {
  const paths = FindMyWay();
  const methodsByPath = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    let methods = methodsByPath.get(route.url);
    if (!methods) {
      methods = new Set();
      methodsByPath.set(route.url, methods);
      paths.on("GET", route.url, () => undefined, methods);
    }
    for (const method of [route.method].flat()) methods.add(method);
  });
  app.addHook("onRequest", async (request, reply) => {
    if (!request.is404) return;
    const path = request.url.split("?", 1)[0] ?? "/";
    const found = paths.find("GET", path);
    // find-my-way lets a parameter match an empty segment ("/x/" for "/x/:id"); Fastify routes none there.
    const methods = Object.values(found?.params ?? {}).includes("")
      ? undefined
      : (found?.store as Set<string> | undefined);
    if (methods && !methods.has(request.method)) {
      const allow = [...methods].sort().join(", ");
      return answer(
        reply,
        request,
        new ApiError(
          405,
          "METHOD_NOT_ALLOWED",
          `${request.method} is not allowed on this path; use ${allow}`,
          undefined,
          { Allow: allow },
        ),
      );
    }
    return answer(reply, request, new ApiError(404, "NOT_FOUND", `no route ${request.method} ${path}`));
  });
}

type RefusalSender = (reply: FastifyReply, request: FastifyRequest, error: ApiError) => FastifyReply;
