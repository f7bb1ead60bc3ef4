import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import { ApiError } from "../http/api-error.js";

/** Where the console is served on the admin listener; these two routes are the only public ones besides the probes. */
export const CONSOLE_BASE = "/console";
export const CONSOLE_ROUTES = [CONSOLE_BASE, `${CONSOLE_BASE}/*`] as const;

/**
 * The console's page may load scripts, styles and data only from this origin and be framed by no one: the
 * built app has no inline script or style (gateway/console/vite.config.ts), and every API call goes to this
 * same listener with the bearer token.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": CONSOLE_CSP,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
};

/** A file of the build: plain names under the app's folder, no dot segments, no hidden files. */
const ASSET_PATH = /^(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*\.[A-Za-z0-9]+$/;

const noSuchFile = () => new ApiError(404, "NOT_FOUND", "no such console file");

/**
 * Serves the operator console (the static build of gateway/console) at /console on the admin listener.
 * The files are public, like any web app's, and hold no data: every API call the app makes needs the admin
 * token. Hashed assets are cached for a year; index.html is never cached, so a new build is picked up on the
 * next load. Any path without a file extension is a page of the app and gets index.html (deep links).
 * `consoleDir` empty (CONSOLE_DIR=off): no console routes at all.
 */
export async function registerConsole(app: FastifyInstance, consoleDir: string): Promise<void> {
  if (consoleDir === "") return;
  await app.register(fastifyStatic, { root: consoleDir, serve: false, index: false, dotfiles: "deny" });
  const page = (reply: FastifyReply) => {
    if (!existsSync(join(consoleDir, "index.html"))) {
      throw new ApiError(
        404,
        "CONSOLE_NOT_BUILT",
        "the operator console is not built: run `npm run build` (npm start builds it by itself)",
      );
    }
    return reply.header("Cache-Control", "no-cache").sendFile("index.html", { cacheControl: false });
  };
  const secured = { config: { public: true } } as const;

  app.get(CONSOLE_BASE, secured, async (_request, reply) => reply.redirect(`${CONSOLE_BASE}/`));
  app.get<{ Params: { "*": string } }>(`${CONSOLE_BASE}/*`, secured, async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
    const path = request.params["*"];
    // No dot segments or hidden names, in pages or files: nothing outside the build is ever reached.
    if (path.split("/").some((segment) => segment.startsWith("."))) throw noSuchFile();
    if (!/\.[A-Za-z0-9]+$/.test(path)) return page(reply);
    if (!ASSET_PATH.test(path)) throw noSuchFile();
    const hashed = path.startsWith("assets/");
    return reply.sendFile(path, {
      cacheControl: true,
      maxAge: hashed ? "365d" : 0,
      immutable: hashed,
    });
  });
}
