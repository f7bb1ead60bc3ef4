import { writeFileSync } from "node:fs";
import { join } from "node:path";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { CONSOLE_DIST, CONSOLE_ROOT, STAMP_FILE, sourceFingerprint } from "./build-stamp.js";

/** Records what this build was made from, so `npm start` rebuilds only when a source changed. */
function buildStamp(): Plugin {
  return {
    name: "payouts-build-stamp",
    apply: "build",
    closeBundle() {
      const stamp = { fingerprint: sourceFingerprint(), built_at: new Date().toISOString() };
      writeFileSync(join(CONSOLE_DIST, STAMP_FILE), `${JSON.stringify(stamp)}\n`);
    },
  };
}

export default defineConfig({
  root: CONSOLE_ROOT,
  // Served by the admin listener under /console (gateway/src/admin/console-static.ts).
  base: "/console/",
  plugins: [react(), buildStamp()],
  build: {
    outDir: CONSOLE_DIST,
    emptyOutDir: true,
    // No inline scripts or styles, so the strict Content-Security-Policy holds (script-src 'self').
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    // `npm run dev -w @payouts/console` against a running `npm start`: API calls go to its admin listener.
    proxy: { "/admin": process.env.CONSOLE_API ?? "http://127.0.0.1:8081" },
  },
});
