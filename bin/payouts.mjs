#!/usr/bin/env node
// `npx payouts <command>` in a checkout: the runtime CLI (services/runtime/src/cli.ts) run from source.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../services/runtime/src/cli.ts", import.meta.url));
const result = spawnSync(
  process.execPath,
  ["--conditions=source", "--import", import.meta.resolve("tsx"), cli, ...process.argv.slice(2)],
  { stdio: "inherit" },
);
process.exit(result.status ?? 1);
